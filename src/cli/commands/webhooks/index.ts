import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { createCommand } from './create.js';
import { listCommand } from './list.js';
import { getCommand } from './get.js';
import { updateCommand } from './update.js';
import { deleteCommand } from './delete.js';
import { testCommand } from './test.js';
import { rotateSecretCommand } from './rotate-secret.js';
import { deliveriesCommand } from './deliveries.js';
import { retryCommand } from './retry.js';
import { tailCommand } from './tail.js';
import { listenCommand } from './listen.js';

export function register(group: Command, ctx: CliContext): void {
  createCommand(group, ctx);
  listCommand(group, ctx);
  getCommand(group, ctx);
  updateCommand(group, ctx);
  deleteCommand(group, ctx);
  testCommand(group, ctx);
  rotateSecretCommand(group, ctx);
  deliveriesCommand(group, ctx);
  retryCommand(group, ctx);
  tailCommand(group, ctx);
  listenCommand(group, ctx);
}
