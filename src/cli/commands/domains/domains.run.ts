import { setTimeout as sleep } from 'node:timers/promises';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { CancelledError, CliError } from '../../errors.js';
import { printList, resolveFormat } from '../../../output/formatters.js';
import { addDomain, getDomain, removeDomain, verifyDomain } from '../../../api/resources/domains.js';
import type { Domain } from '../../../api/schemas/email.js';
import { domainId } from './domain-ref.js';
import { zoneLines } from './zone.js';
import { DOMAIN_COLUMNS, RECORD_COLUMNS } from './columns.js';
import { verifyDomainOptionsOf, type VerifyDomainFlags, type VerifyDomainOptions } from './verify-options.js';

export interface DomainArg {
  domain: string;
}

// The domains verbs (spec: Email domains endpoints, Sending domain status; contract §8).

/** `-o zone` is this family's own format (cli.md "Email"); every other -o is the global one. */
const wantsZone = (ctx: CliContext): boolean => !ctx.flags.json && (ctx.flags.output ?? '').trim().toLowerCase() === 'zone';

/**
 * A domain: on a table, its fields then (after a blank line) its records as a table (type, name,
 * value, purpose, status);
 * `-o zone` the records as zone-file lines; any other format the whole resource.
 */
export async function printDomain(ctx: CliContext, domain: Domain): Promise<void> {
  if (wantsZone(ctx)) {
    ctx.io.stdout.write(zoneLines(domain.records).map((l) => `${l}\n`).join(''));
    return;
  }
  const { format } = resolveFormat({ requested: ctx.outputFormat, stdoutTTY: ctx.io.stdoutTTY, kind: 'resource' });
  if (format !== 'table') {
    await printOne(ctx, domain);
    return;
  }
  // The records once, as their own table (not also as a JSON blob among the fields).
  const { records, ...fields } = domain;
  await printOne(ctx, fields, DOMAIN_COLUMNS);
  ctx.io.stdout.write('\n');
  await printList(ctx.io, records, { format: 'table', columns: RECORD_COLUMNS });
}

export async function runAddDomain(ctx: CliContext, opts: DomainArg): Promise<void> {
  if (!wantsZone(ctx)) void ctx.outputFormat; // an unknown -o is refused before the domain is added
  const domain = await addDomain(await ctx.client(), opts.domain.trim());
  await printDomain(ctx, domain);
  if (ctx.io.stderrTTY) notice(ctx, `publish these records, then: svc domains verify ${domain.domain} --wait`);
}

export async function runGetDomain(ctx: CliContext, opts: DomainArg): Promise<void> {
  const client = await ctx.client();
  await printDomain(ctx, await getDomain(client, await domainId(await ctx.readClient(), opts.domain)));
}

export async function runDeleteDomain(ctx: CliContext, opts: DomainArg): Promise<void> {
  const client = await ctx.client();
  const id = await domainId(await ctx.readClient(), opts.domain);
  await ctx.confirm(`Delete the sending domain ${opts.domain}? Email can no longer be sent from it.`);
  await removeDomain(client, id);
  notice(ctx, `deleted the sending domain ${opts.domain}`);
}

/** How often --wait re-checks (wall clock): each check reads the DNS again. */
const VERIFY_INTERVAL_MS = 1000;

/** Statuses the domain leaves only by a new check: every status but `pending` ends --wait. */
const isSettled = (d: Domain): boolean => d.status !== 'pending';

export async function runVerifyDomainVerb(ctx: CliContext, flags: VerifyDomainFlags): Promise<void> {
  await runVerifyDomain(ctx, verifyDomainOptionsOf(flags));
}

export async function runVerifyDomain(ctx: CliContext, opts: VerifyDomainOptions): Promise<void> {
  const client = await ctx.client();
  // A name is looked up with GETs even under --dry-run, so the dry run shows the verify it would send.
  const id = await domainId(await ctx.readClient(), opts.domain);
  let domain = await verifyDomain(client, id);
  if (opts.wait) domain = await waitSettled(ctx, domain, opts.timeoutSecs);
  await printDomain(ctx, domain);
  if (domain.status === 'failed' || domain.status === 'degraded') {
    const bad = domain.records.filter((r) => r.status !== 'valid' && r.purpose !== 'dmarc').map((r) => `${r.purpose} ${r.type} ${r.name}: ${r.status}`);
    throw new CliError(`domain ${domain.domain} is ${domain.status}${bad.length ? `: ${bad.join('; ')}` : ''}`);
  }
}

/** Re-verifies while pending, saying each record's status on stderr when it changes. */
async function waitSettled(ctx: CliContext, first: Domain, timeoutSecs: number): Promise<Domain> {
  const client = await ctx.client();
  const deadline = ctx.now().getTime() + timeoutSecs * 1000;
  const stop = new AbortController();
  void ctx.environment.waitForInterrupt?.().then(() => stop.abort());
  const seen = new Map<string, string>();
  const say = (d: Domain) => {
    for (const r of d.records) {
      const key = `${r.purpose} ${r.type} ${r.name}`;
      if (seen.get(key) === r.status) continue;
      seen.set(key, r.status);
      notice(ctx, `${r.status.padEnd(8)} ${r.purpose.padEnd(12)} ${r.type.padEnd(5)} ${r.name}`);
    }
  };
  let domain = first;
  say(domain);
  while (!isSettled(domain)) {
    const left = deadline - ctx.now().getTime();
    if (left <= 0) {
      await printDomain(ctx, domain);
      throw new CliError(`timed out after ${timeoutSecs}s: domain ${domain.domain} is still pending (DNS not visible yet); check again with svc domains verify ${domain.domain} --wait`);
    }
    try {
      await sleep(Math.min(VERIFY_INTERVAL_MS, left), undefined, { signal: stop.signal });
    } catch {
      throw new CancelledError(`stopped waiting; domain ${domain.domain} is ${domain.status}`);
    }
    domain = await verifyDomain(client, domain.id);
    say(domain);
  }
  return domain;
}
