import { defineTrigger } from './definition.js';
import { DNS_RECORD_PURPOSES, type SandboxEmailEventType } from '../../../api/values/email.js';

// contract §9 and §8: email's outside world — the DNS answers a domain's checks read (the sandbox DNS
// table), and a mail server's reports about one recipient of an email.

const verbs = () => import('./email-triggers.run.js');

export interface DnsPublishOptions {
  domain: string;
  visibleAfter?: string;
  skip?: string[];
}

export const dnsPublishTrigger = defineTrigger<DnsPublishOptions>({
  description: "Publish a domain's DNS records in the sandbox DNS, at once or after a propagation delay",
  options: [
    { flags: '--domain <domain>', description: 'the sending domain (name or id)', required: true },
    { flags: '--visible-after <duration>', description: 'answer as still propagating for this long (service clock: 30s, 10m)' },
    { flags: '--skip <purpose>', description: 'leave out the records of this purpose; repeatable', choices: DNS_RECORD_PURPOSES, repeatable: true },
  ],
  details: [
    'Puts every record the domain asks for (svc domains get) into the sandbox DNS, the values grouped',
    'per name: what `svc domains verify` reads on the local service. Before --visible-after has passed',
    'on the service clock the names answer as propagating, so the domain stays pending. --skip dkim',
    'leaves the DKIM record out, so the next check fails.',
  ].join('\n'),
  examples: ['svc trigger dns.publish --domain send.example.com', 'svc trigger dns.publish --domain send.example.com --visible-after 30s --skip dkim'],
  run: async (ctx, opts) => (await verbs()).runDnsPublish(ctx, opts),
});

/** How dns.break breaks a record: its name answers nothing, or the record answers a wrong value. */
export const DNS_BREAKS = ['missing', 'wrong'] as const;

export interface DnsBreakOptions {
  domain: string;
  record: string;
  how: (typeof DNS_BREAKS)[number];
}

export const dnsBreakTrigger = defineTrigger<DnsBreakOptions>({
  description: "Break one of a domain's records in the sandbox DNS so its next check fails",
  options: [
    { flags: '--domain <domain>', description: 'the sending domain (name or id)', required: true },
    { flags: '--record <purpose>', description: 'the record to break', required: true, choices: DNS_RECORD_PURPOSES },
    { flags: '--how <how>', description: 'missing: the record is removed; wrong: it answers another value', choices: DNS_BREAKS, default: 'missing' },
  ],
  details: [
    "Replaces the record's name in the sandbox DNS with the domain's other records at that name (or",
    'deletes the name when none is left); with --how wrong the record answers a wrong value instead.',
    'A pending domain then fails its next check; a verified one becomes degraded.',
  ].join('\n'),
  examples: ['svc trigger dns.break --domain send.example.com --record dkim', 'svc trigger dns.break --domain send.example.com --record spf --how wrong'],
  run: async (ctx, opts) => (await verbs()).runDnsBreak(ctx, opts),
});

export interface EmailReportOptions {
  email: string;
  recipient: string;
}

/** One trigger per mail-server report (contract §9: POST /v1/sandbox/email-events). */
const emailReport = (type: string, report: SandboxEmailEventType, description: string) =>
  defineTrigger<EmailReportOptions>({
    description,
    options: [
      { flags: '--email <id>', description: 'the email (eml_…)', required: true },
      { flags: '--recipient <addr>', description: 'one of its recipients', required: true },
    ],
    details: `Reports ${type} for one recipient as its mail server or mail client would (the sandbox's \`${report}\` report), with the same\neffects and events; prints that recipient after it. A bounce or a failure needs a recipient on its way (sent or deferred);\nthe others a delivered one (exit 5 otherwise, saying why).`,
    examples: [`svc trigger ${type} --email eml_k0Pw1UTo4AoEs8XfvbDy --recipient ada@example.org`],
    run: async (ctx, opts) => (await verbs()).runEmailReport(ctx, report, opts),
  });

export const emailBouncedTrigger = emailReport('email.bounced', 'bounce', "A recipient's mail server bounces the email (hard): the address is suppressed");
export const emailFailedTrigger = emailReport('email.failed', 'fail', 'The provider gives up on a recipient (a failure other than a bounce; not suppressed)');
export const emailComplainedTrigger = emailReport('email.complained', 'complaint', 'A recipient reports the email as spam: the address is suppressed for good');
export const emailOpenedTrigger = emailReport('email.opened', 'open', 'A recipient opens the email (open tracking)');
export const emailClickedTrigger = emailReport('email.clicked', 'click', 'A recipient clicks a tracked link in the email');
export const emailUnsubscribedTrigger = emailReport('email.unsubscribed', 'unsubscribe', 'A recipient unsubscribes: the address is suppressed (removable)');
