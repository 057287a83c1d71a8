import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { checkCommand } from './check.js';
import { createCommand } from './create.js';
import { attachCommand } from './attach.js';
import { submitCommand } from './submit.js';
import { getCommand } from './get.js';
import { listCommand } from './list.js';
import { cancelCommand } from './cancel.js';

export function register(group: Command, ctx: CliContext): void {
  checkCommand(group, ctx);
  createCommand(group, ctx);
  attachCommand(group, ctx);
  submitCommand(group, ctx);
  getCommand(group, ctx);
  listCommand(group, ctx);
  cancelCommand(group, ctx);
}
