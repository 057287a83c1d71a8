import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { listCommand } from './list.js';

export function register(group: Command, ctx: CliContext): void {
  listCommand(group, ctx);
}
