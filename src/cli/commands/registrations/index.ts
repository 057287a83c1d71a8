import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { draftCommand } from './draft.js';
import { predictCommand } from './predict.js';
import { submitCommand } from './submit.js';

export function register(group: Command, ctx: CliContext): void {
  draftCommand(group, ctx);
  predictCommand(group, ctx);
  submitCommand(group, ctx);
}
