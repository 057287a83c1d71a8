import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { addGroupExamples } from '../../help-examples.js';
import { registerCommand } from './register.js';
import { listCommand } from './list.js';
import { removeCommand } from './remove.js';
import { tokenCommand } from './token.js';
import { presenceCommand } from './presence.js';
import { callCommand } from './call.js';

export function register(group: Command, ctx: CliContext): void {
  const devices = group
    .command('devices')
    .description('Softphone devices: register, list, remove, mint login tokens, report presence');
  registerCommand(devices, ctx);
  listCommand(devices, ctx);
  removeCommand(devices, ctx);
  tokenCommand(devices, ctx);
  presenceCommand(devices, ctx);
  addGroupExamples(devices);
  callCommand(group, ctx);
}
