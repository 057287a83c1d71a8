// The email verbs' flags → typed options without running anything (the GitHub CLI's runF), and the
// refusals a bad flag gets before any request is sent.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../src/cli/errors.js';
import { verbs as domainVerbs } from '../src/cli/commands/domains/index.js';
import { verifyDomainOptionsOf, type VerifyDomainFlags } from '../src/cli/commands/domains/verify-options.js';
import { verbs as emailVerbs } from '../src/cli/commands/emails/index.js';
import { sendEmailOptionsOf, type SendEmailFlags } from '../src/cli/commands/emails/send-options.js';
import { waitEmailOptionsOf, type WaitEmailFlags } from '../src/cli/commands/emails/wait-options.js';
import { verbs as suppressionVerbs } from '../src/cli/commands/suppressions/index.js';
import type { ListSuppressionsOptions, DeleteSuppressionOptions } from '../src/cli/commands/suppressions/suppressions.run.js';
import { TRIGGERS } from '../src/cli/commands/trigger/registry.js';
import { recordsByName } from '../src/cli/commands/trigger/email-triggers.run.js';
import { timelineDetail } from '../src/cli/commands/emails/emails.run.js';
import { DNS_RECORD_PURPOSES, SANDBOX_EMAIL_EVENT_TYPES } from '../src/api/values/email.js';
import { optionsOf, refusal, verbNamed } from './helpers/verb-flags.js';

const domainsAdd = verbNamed(domainVerbs, 'add');
const domainsList = verbNamed(domainVerbs, 'list');
const domainsGet = verbNamed(domainVerbs, 'get');
const domainsVerify = verbNamed(domainVerbs, 'verify');
const domainsDelete = verbNamed(domainVerbs, 'delete');
const emailsSend = verbNamed(emailVerbs, 'send');
const emailsGet = verbNamed(emailVerbs, 'get');
const emailsEvents = verbNamed(emailVerbs, 'events');
const emailsList = verbNamed(emailVerbs, 'list');
const emailsWait = verbNamed(emailVerbs, 'wait');
/** The options each run function works with: the flags, then the verb's own conversion. */
const verifyOf = async (argv: string[]) => verifyDomainOptionsOf(await optionsOf<VerifyDomainFlags>(domainsVerify, argv));
const sendOf = async (argv: string[]) => sendEmailOptionsOf(await optionsOf<SendEmailFlags>(emailsSend, argv));
const waitOf = async (argv: string[]) => waitEmailOptionsOf(await optionsOf<WaitEmailFlags>(emailsWait, argv));

describe('domains flags', () => {
  it('add, get, delete (remove, its old word) take the domain; list takes --status from the enum', async () => {
    expect(await optionsOf(domainsAdd, ['send.example.com'])).toEqual({ domain: 'send.example.com' });
    expect(await optionsOf(domainsGet, ['dom_1'])).toEqual({ domain: 'dom_1' });
    expect(await optionsOf(domainsDelete, ['send.example.com'])).toEqual({ domain: 'send.example.com' });
    expect(await optionsOf(domainsList, ['--status', 'verified', '--all'])).toMatchObject({ status: 'verified', all: true });
    expect(await refusal(domainsList, ['--status', 'expired'])).toBe('commander.invalidArgument');
    expect(await refusal(domainsAdd, [])).toBe('commander.missingArgument');
  });

  it('verify: --wait off by default, --timeout 5m; a bad or zero --timeout is a usage error naming it', async () => {
    expect(await verifyOf(['send.example.com'])).toEqual({ domain: 'send.example.com', wait: false, timeoutSecs: 300 });
    expect(await verifyOf(['d.example.com', '--wait', '--timeout', '1m30s'])).toEqual({ domain: 'd.example.com', wait: true, timeoutSecs: 90 });
    for (const bad of ['soon', '0s']) {
      const err = await verifyOf(['d.example.com', '--timeout', bad]).then(() => undefined, (e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).flag).toBe('--timeout');
    }
  });
});

describe('emails flags', () => {
  const base = ['--from', 'hi@send.example.com', '--subject', 'S'];

  it('send: repeated and comma-separated recipients, files, tags, metadata pairs in order', async () => {
    const o = await sendOf([
      ...base,
      '--to', 'a@x.org,"Doe, Jane" <jane@x.org>',
      '--to', 'b@x.org',
      '--cc', 'c@x.org',
      '--bcc', 'd@x.org,e@x.org',
      '--text-file', 'body.txt',
      '--html-file', '-',
      '--tag', 'welcome', '--tag', 'beta',
      '--metadata', 'user=42', '--metadata', 'url=https://x.org/?a=b',
      '--external-ref', 'order-1',
      '--idempotency-key', 'k1',
      '--wait', '--wait-timeout', '2m',
    ]);
    // --wait-timeout is the old name of --timeout: the same value.
    expect((await sendOf([...base, '--to', 'a@x.org', '--timeout', '2m'])).waitTimeoutSecs).toBe(120);
    expect(o).toEqual({
      from: 'hi@send.example.com',
      subject: 'S',
      to: ['a@x.org', '"Doe, Jane" <jane@x.org>', 'b@x.org'],
      cc: ['c@x.org'],
      bcc: ['d@x.org', 'e@x.org'],
      text: undefined,
      textFile: 'body.txt',
      htmlFile: '-',
      tags: ['welcome', 'beta'],
      metadata: [['user', '42'], ['url', 'https://x.org/?a=b']],
      externalRef: 'order-1',
      idempotencyKey: 'k1',
      wait: true,
      waitTimeoutSecs: 120,
    });
  });

  it('send: defaults (no key: one is generated at send time; --wait-timeout 60s)', async () => {
    const o = await sendOf([...base, '--to', 'a@x.org', '--text', 'hi']);
    expect(o).toMatchObject({ to: ['a@x.org'], cc: [], bcc: [], tags: [], metadata: [], idempotencyKey: undefined, wait: false, waitTimeoutSecs: 60 });
  });

  it('send: --from and --subject are required; --metadata needs KEY=VALUE', async () => {
    expect(await refusal(emailsSend, ['--subject', 'S', '--to', 'a@x.org', '--text', 'hi'])).toBe('commander.missingMandatoryOptionValue');
    expect(await refusal(emailsSend, ['--from', 'a@x.org', '--to', 'a@x.org', '--text', 'hi'])).toBe('commander.missingMandatoryOptionValue');
    for (const bad of ['novalue', '=v']) {
      const err = await sendOf([...base, '--to', 'a@x.org', '--metadata', bad]).then(() => undefined, (e: unknown) => e);
      expect((err as { message?: string }).message).toContain('KEY=VALUE');
    }
  });

  it('get, events take the id; list takes --status', async () => {
    expect(await optionsOf(emailsGet, ['eml_1'])).toEqual({ email: 'eml_1' });
    expect(await optionsOf(emailsEvents, ['eml_1'])).toEqual({ email: 'eml_1' });
    expect(await optionsOf(emailsList, ['--status', 'bounced'])).toMatchObject({ status: 'bounced' });
    expect(await refusal(emailsList, ['--status', 'opened'])).toBe('commander.invalidArgument');
  });

  it('wait: --to required, --timeout 30s and --since 1m by default; all and now', async () => {
    expect(await waitOf(['--to', 'a@x.org'])).toEqual({ to: 'a@x.org', subjectMatch: undefined, timeoutSecs: 30, since: 60 });
    expect(await waitOf(['--to', 'a@x.org', '--subject-match', '^Hi', '--timeout', '5s', '--since', 'all'])).toMatchObject({ subjectMatch: '^Hi', timeoutSecs: 5, since: 'all' });
    expect(await waitOf(['--to', 'a@x.org', '--since', 'NOW'])).toMatchObject({ since: 'now' });
    expect(await waitOf(['--to', 'a@x.org', '--since', '0'])).toMatchObject({ since: 0 });
    expect(await refusal(emailsWait, [])).toBe('commander.missingMandatoryOptionValue');
    const err = await waitOf(['--to', 'a@x.org', '--since', 'yesterday']).then(() => undefined, (e: unknown) => e);
    expect((err as UsageError).flag).toBe('--since');
  });

  it("events' detail column: the bounce, the url or the method", () => {
    const at = { type: 'x', recipientKind: 'to' as const, status: 's', occurredAt: '2026-01-01T00:00:00Z' };
    expect(timelineDetail({ ...at, bounce: { class: 'hard', code: 550, message: 'no such user' } })).toBe('hard 550 no such user');
    expect(timelineDetail({ ...at, bounce: { class: 'soft', code: null, message: null } })).toBe('soft');
    expect(timelineDetail({ ...at, url: 'https://x.org' })).toBe('https://x.org');
    expect(timelineDetail({ ...at, method: 'one_click' })).toBe('one_click');
    expect(timelineDetail(at)).toBe('');
  });
});

describe('suppressions flags', () => {
  it('list --reason from the enum; remove takes the address', async () => {
    expect(await optionsOf<ListSuppressionsOptions>(verbNamed(suppressionVerbs, 'list'), ['--reason', 'complaint'])).toMatchObject({ reason: 'complaint' });
    expect(await refusal(verbNamed(suppressionVerbs, 'list'), ['--reason', 'spam'])).toBe('commander.invalidArgument');
    expect(await optionsOf<DeleteSuppressionOptions>(verbNamed(suppressionVerbs, 'delete'), ['ada@example.org'])).toEqual({ address: 'ada@example.org' });
  });
});

describe('email triggers', () => {
  it('are registered with one-line descriptions; each report maps to a sandbox report type', () => {
    const types = ['dns.publish', 'dns.break', 'email.bounced', 'email.failed', 'email.complained', 'email.opened', 'email.clicked', 'email.unsubscribed'];
    for (const t of types) {
      expect(TRIGGERS[t], t).toBeDefined();
      expect(TRIGGERS[t]!.summary).not.toContain('\n');
      expect(TRIGGERS[t]!.examples.length).toBeGreaterThan(0);
    }
    const reports = ['email.bounced', 'email.failed', 'email.complained', 'email.opened', 'email.clicked', 'email.unsubscribed'].map((t) => /`(\w+)` report/.exec(TRIGGERS[t]!.details ?? '')?.[1]);
    expect(reports).toEqual([...SANDBOX_EMAIL_EVENT_TYPES]);
    const skip = TRIGGERS['dns.publish']!.flags!.find((o) => o.flags.startsWith('--skip'))!;
    expect(skip.choices).toEqual(DNS_RECORD_PURPOSES);
    expect(skip.repeatable).toBe(true);
    expect(TRIGGERS['dns.break']!.flags!.find((o) => o.flags.startsWith('--record'))!.required).toBe(true);
  });

  it('dns.publish groups the values per name, in the order the domain lists them', () => {
    const r = (type: 'TXT' | 'MX' | 'CNAME', name: string, value: string, purpose: (typeof DNS_RECORD_PURPOSES)[number]) => ({ type, name, value, purpose, status: 'pending' as const });
    const grouped = recordsByName([r('TXT', 'a.x.org', 'v1', 'verification'), r('TXT', 'send.x.org', 'spf', 'spf'), r('MX', 'send.x.org', '10 fb.x', 'return_path')]);
    expect([...grouped.entries()]).toEqual([
      ['a.x.org', [{ type: 'TXT', value: 'v1' }]],
      ['send.x.org', [{ type: 'TXT', value: 'spf' }, { type: 'MX', value: '10 fb.x' }]],
    ]);
  });
});
