import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { getCommand } from './get.js';
import { applyCommand } from './apply.js';
import { diffCommand } from './diff.js';
import { editCommand } from './edit.js';

export function register(group: Command, ctx: CliContext): void {
  getCommand(group, ctx);
  applyCommand(group, ctx);
  diffCommand(group, ctx);
  editCommand(group, ctx);
}
