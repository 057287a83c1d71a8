import type { CliContext } from '../../context.js';
import { printOne } from '../../print-resource.js';
import { emailTimeline, getEmail } from '../../../api/resources/emails.js';
import { printList, resolveFormat } from '../../../output/formatters.js';
import { EMAIL_COLUMNS, RECIPIENT_COLUMNS, TIMELINE_COLUMNS } from './columns.js';

export interface EmailArg {
  email: string;
}

// The emails verbs that read (contract §8: Email, its timeline).

export async function runGetEmail(ctx: CliContext, opts: EmailArg): Promise<void> {
  const email = await getEmail(await ctx.client(), opts.email);
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  if (format !== 'table') return printOne(ctx, email);
  // On a table: the email's fields, then one row per recipient.
  await printOne(ctx, email, EMAIL_COLUMNS);
  await printList(ctx.io, email.recipients, { format: 'table', columns: RECIPIENT_COLUMNS, now: ctx.serviceNow() });
}

type TimelineEntry = Awaited<ReturnType<typeof emailTimeline>>[number];

/** The entry's particulars in one cell: the bounce, the clicked url, or the unsubscribe method. */
export function timelineDetail(e: TimelineEntry): string {
  if (e.bounce) return [e.bounce.class, e.bounce.code, e.bounce.message].filter((p) => p !== null && p !== undefined).join(' ');
  if (e.url) return e.url;
  if (e.method) return e.method;
  return '';
}

export async function runEmailEvents(ctx: CliContext, opts: EmailArg): Promise<void> {
  const entries = await emailTimeline(await ctx.client(), opts.email);
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'list' });
  // Machine formats get the entries as the API gave them; tables get a detail column instead of nesting.
  const machine = format === 'json' || format === 'yaml' || format === 'ndjson';
  const rows = machine ? entries : entries.map((e) => ({ ...e, recipient: e.recipient ?? '(bcc)', detail: timelineDetail(e) }));
  await printList(ctx.io, rows, { format: ctx.outputFormat, columns: machine ? undefined : TIMELINE_COLUMNS, now: ctx.serviceNow() });
}
