import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { showCommand } from './show.js';
import { topUpCommand } from './top-up.js';
import { autoRechargeCommand } from './auto-recharge.js';
import { limitCommand } from './limit.js';
import { subscribeCommand } from './subscribe.js';
import { cancelCommand } from './cancel.js';
import { cardCommand } from './card.js';

export function register(group: Command, ctx: CliContext): void {
  showCommand(group, ctx);
  topUpCommand(group, ctx);
  autoRechargeCommand(group, ctx);
  limitCommand(group, ctx);
  subscribeCommand(group, ctx);
  cancelCommand(group, ctx);
  cardCommand(group, ctx);
}
