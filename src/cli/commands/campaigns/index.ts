import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { createCommand } from './create.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';
import { updateCommand } from './update.js';
import { resubmitCommand } from './resubmit.js';
import { lintCommand } from './lint.js';

export function register(group: Command, ctx: CliContext): void {
  createCommand(group, ctx);
  listCommand(group, ctx);
  getCommand(group, ctx);
  updateCommand(group, ctx);
  resubmitCommand(group, ctx);
  lintCommand(group, ctx);
}
