import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { sendCommand } from './send.js';
import { getCommand } from './get.js';
import { eventsCommand } from './events.js';
import { listCommand } from './list.js';
import { waitCommand } from './wait.js';

export function register(group: Command, ctx: CliContext): void {
  sendCommand(group, ctx);
  getCommand(group, ctx);
  eventsCommand(group, ctx);
  listCommand(group, ctx);
  waitCommand(group, ctx);
}
