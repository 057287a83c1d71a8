import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { listCommand } from './list.js';
import { addCommand } from './add.js';
import { getCommand } from './get.js';
import { confirmCommand } from './confirm.js';
import { updateCommand } from './update.js';
import { removeCommand } from './remove.js';

export function register(group: Command, ctx: CliContext): void {
  listCommand(group, ctx);
  addCommand(group, ctx);
  getCommand(group, ctx);
  confirmCommand(group, ctx);
  updateCommand(group, ctx);
  removeCommand(group, ctx);
}
