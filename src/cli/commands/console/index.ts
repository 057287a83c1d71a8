import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { consoleCommand } from './console.js';

export function register(cmd: Command, ctx: CliContext): void {
  consoleCommand(cmd, ctx);
}
