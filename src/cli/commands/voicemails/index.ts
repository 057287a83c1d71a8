import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';
import { audioCommand } from './audio.js';

export function register(group: Command, ctx: CliContext): void {
  listCommand(group, ctx);
  getCommand(group, ctx);
  audioCommand(group, ctx);
}
