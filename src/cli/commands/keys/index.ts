import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { createCommand } from './create.js';
import { listCommand } from './list.js';
import { revokeCommand } from './revoke.js';

export function register(group: Command, ctx: CliContext): void {
  createCommand(group, ctx);
  listCommand(group, ctx);
  revokeCommand(group, ctx);
}
