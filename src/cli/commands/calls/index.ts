import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';
import { recordingCommand } from './recording.js';
import { transferCommand } from './transfer.js';
import { simulateCommand } from './simulate.js';

export function register(group: Command, ctx: CliContext): void {
  listCommand(group, ctx);
  getCommand(group, ctx);
  recordingCommand(group, ctx);
  transferCommand(group, ctx);
  simulateCommand(group, ctx);
}
