import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { sendCommand } from './send.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';

export function register(group: Command, ctx: CliContext): void {
  sendCommand(group, ctx);
  listCommand(group, ctx);
  getCommand(group, ctx);
}
