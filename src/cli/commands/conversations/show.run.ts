import type { CliContext } from '../../context.js';
import { notice, parseLimit } from '../../command-kit.js';
import { requireE164 } from '../../phone-numbers.js';
import { getThread } from '../../../api/resources/conversations.js';
import { THREAD_LIMIT_MAX } from '../../../api/values/conversations.js';
import type { Message } from '../../../api/schemas/messages.js';
import type { Colors } from '../../../output/colors.js';
import { printList } from '../../../output/formatters.js';
import { writeAndDrain } from '../../../output/io.js';
import { loadColors } from '../../../output/load-colors.js';
import { MESSAGE_LIST_COLUMNS } from '../messages/columns.js';

export interface ShowConversationOptions {
  counterparty: string;
  /** The latest N messages (1-200, service default 50). */
  limit?: string;
}

export async function runShow(ctx: CliContext, opts: ShowConversationOptions): Promise<void> {
  const counterparty = requireE164(opts.counterparty, '<counterparty>');
  const limit = parseLimit(opts.limit, THREAD_LIMIT_MAX);
  const thread = await getThread(await ctx.client(), counterparty, { limit });
  const format = ctx.outputFormat;
  if (format === undefined && ctx.io.stdoutTTY) {
    if (thread.data.length === 0) {
      notice(ctx, `no messages with ${counterparty}`);
      return;
    }
    const colors = await loadColors(ctx.io.colorEnabled);
    await writeAndDrain(ctx.io.stdout, thread.data.map((m) => `${threadLine(m, counterparty, colors)}\n`).join(''));
    return;
  }
  await printList(ctx.io, thread.data, { format, columns: MESSAGE_LIST_COLUMNS, now: ctx.serviceNow() });
}

// Statuses a person reading a thread needs no word about.
const QUIET_STATUSES = new Set(['delivered', 'received']);

/** `→ 2025-05-01 14:03  you           Your table is ready` — one line, local time. */
export function threadLine(m: Message, counterparty: string, colors: Colors): string {
  const outbound = m.direction === 'outbound';
  const arrow = outbound ? '→' : '←';
  const who = outbound ? colors.id('you'.padEnd(counterparty.length)) : colors.bold(counterparty);
  let text = m.body.replace(/\s*[\r\n]+\s*/g, ' ⏎ ');
  if (m.media && m.media.length) {
    const names = m.media.map((x) => x.filename).join(', ');
    text = `${text}${text ? ' ' : ''}${colors.dim(`[${m.media.length === 1 ? 'media' : `${m.media.length} media`}: ${names}]`)}`;
  }
  const status = QUIET_STATUSES.has(m.status) ? '' : `  ${colors.status(m.status)}${m.reason ? colors.dim(` (${m.reason})`) : ''}`;
  return `${arrow} ${colors.dim(localTime(new Date(m.createdAt)))}  ${who}  ${text}${status}`;
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** YYYY-MM-DD HH:MM in the machine's time zone. */
export function localTime(d: Date): string {
  return `${d.getFullYear()}-${pad2(d.getMonth() + 1)}-${pad2(d.getDate())} ${pad2(d.getHours())}:${pad2(d.getMinutes())}`;
}
