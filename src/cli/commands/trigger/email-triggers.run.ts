import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CliError, UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { printList } from '../../../output/formatters.js';
import { getDomain } from '../../../api/resources/domains.js';
import { deleteSandboxDns, putSandboxDns, reportEmailEvent, type SandboxDnsRecord } from '../../../api/resources/sandbox-email.js';
import type { Domain } from '../../../api/schemas/email.js';
import type { SandboxEmailEventType } from '../../../api/values/email.js';
import { domainId } from '../domains/domain-ref.js';
import { RECIPIENT_COLUMNS } from '../emails/columns.js';
import type { DNS_BREAKS } from './dns-breaks.js';

export interface DnsPublishOptions {
  domain: string;
  visibleAfter?: string;
  skip?: string[];
}

export interface DnsBreakOptions {
  domain: string;
  record: string;
  how: (typeof DNS_BREAKS)[number];
}

export interface EmailReportOptions {
  email: string;
  recipient: string;
}

type DomainRecord = Domain['records'][number];

/** The domain's records grouped per name, in the order the domain lists them (contract §9: a PUT sets a name's answers). */
export function recordsByName(records: readonly DomainRecord[]): Map<string, SandboxDnsRecord[]> {
  const byName = new Map<string, SandboxDnsRecord[]>();
  for (const r of records) {
    const list = byName.get(r.name) ?? [];
    list.push({ type: r.type, value: r.value });
    byName.set(r.name, list);
  }
  return byName;
}

async function loadDomain(ctx: CliContext, ref: string): Promise<Domain> {
  // Reads only: sent even under --dry-run, so the dry run shows the DNS writes it would make.
  const reader = await ctx.readClient();
  return getDomain(reader, await domainId(reader, ref, '--domain'));
}

export async function runDnsPublish(ctx: CliContext, opts: DnsPublishOptions): Promise<void> {
  let visibleAfterSecs: number | undefined;
  if (opts.visibleAfter !== undefined) {
    try {
      visibleAfterSecs = parseDuration(opts.visibleAfter, '--visible-after');
    } catch (err) {
      if (err instanceof UsageError) throw new UsageError(`--visible-after: ${err.message}`, '--visible-after');
      throw err;
    }
  }
  const skip = new Set(opts.skip ?? []);
  const domain = await loadDomain(ctx, opts.domain);
  const published = domain.records.filter((r) => !skip.has(r.purpose));
  const client = await ctx.client();
  for (const [name, records] of recordsByName(published)) await putSandboxDns(client, name, records, visibleAfterSecs);
  const rows = published.map((r) => ({ name: r.name, type: r.type, value: r.value, purpose: r.purpose, visibleAfter: visibleAfterSecs === undefined ? 'now' : `${visibleAfterSecs}s` }));
  await printList(ctx.io, rows, { format: ctx.outputFormat, columns: ['name', 'type', 'value', 'purpose', 'visibleAfter'], idField: 'name' });
  if (ctx.io.stderrTTY) notice(ctx, `published ${published.length} records of ${domain.domain}; next: svc domains verify ${domain.domain} --wait`);
}

export async function runDnsBreak(ctx: CliContext, opts: DnsBreakOptions): Promise<void> {
  const domain = await loadDomain(ctx, opts.domain);
  const target = domain.records.find((r) => r.purpose === opts.record);
  if (!target) throw new CliError(`${domain.domain} has no ${opts.record} record (svc domains get ${domain.domain})`);
  const client = await ctx.client();
  // The other records the domain publishes at the same name keep answering: only this one breaks.
  const others = domain.records.filter((r) => r.name === target.name && r !== target).map((r) => ({ type: r.type, value: r.value }));
  const answers: SandboxDnsRecord[] = opts.how === 'wrong' ? [...others, { type: target.type, value: wrongValue(target) }] : others;
  if (answers.length) await putSandboxDns(client, target.name, answers);
  else await deleteSandboxDns(client, target.name);
  await printList(ctx.io, answers, { format: ctx.outputFormat, columns: ['type', 'value'] });
  notice(ctx, `${opts.record} ${target.type} ${target.name} is now ${opts.how}; the next check of ${domain.domain} fails (svc domains verify ${domain.domain})`);
}

/** A value of the record's type that is not the one asked for. */
function wrongValue(r: DomainRecord): string {
  if (r.type === 'MX') return '10 mx.wrong.invalid';
  if (r.type === 'CNAME') return 'wrong.invalid';
  return `${r.value}-wrong`;
}

export async function runEmailReport(ctx: CliContext, type: SandboxEmailEventType, opts: EmailReportOptions): Promise<void> {
  const email = await reportEmailEvent(await ctx.client(), { emailId: opts.email, recipient: opts.recipient, type });
  const recipient = email.recipients.find((r) => r.address.toLowerCase() === opts.recipient.trim().toLowerCase());
  await printOne(ctx, recipient ?? email, recipient ? RECIPIENT_COLUMNS : undefined);
}
