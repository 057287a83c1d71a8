import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addCommand } from './add.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';
import { verifyCommand } from './verify.js';
import { removeCommand } from './remove.js';

export function register(group: Command, ctx: CliContext): void {
  addCommand(group, ctx);
  listCommand(group, ctx);
  getCommand(group, ctx);
  verifyCommand(group, ctx);
  removeCommand(group, ctx);
}
