import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { searchCommand } from './search.js';
import { buyCommand } from './buy.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';
import { updateCommand } from './update.js';
import { releaseCommand } from './release.js';
import { assignCommand } from './assign.js';
import { verifyTollfreeCommand } from './verify-tollfree.js';
import { greetingCommand } from './greeting.js';

export function register(group: Command, ctx: CliContext): void {
  searchCommand(group, ctx);
  buyCommand(group, ctx);
  listCommand(group, ctx);
  getCommand(group, ctx);
  updateCommand(group, ctx);
  releaseCommand(group, ctx);
  assignCommand(group, ctx);
  verifyTollfreeCommand(group, ctx);
  greetingCommand(group, ctx);
}
