import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { registerCommand } from './register.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';
import { updateCommand } from './update.js';
import { resubmitCommand } from './resubmit.js';
import { vetCommand } from './vet.js';

export function register(group: Command, ctx: CliContext): void {
  registerCommand(group, ctx);
  listCommand(group, ctx);
  getCommand(group, ctx);
  updateCommand(group, ctx);
  resubmitCommand(group, ctx);
  vetCommand(group, ctx);
}
