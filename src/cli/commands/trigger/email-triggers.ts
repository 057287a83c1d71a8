import { defineVerb } from '../../verb.js';
import { sandboxDnsEndpoints, sandboxEmailEndpoints } from '../../../api/resources/sandbox-email.js';
import { DNS_RECORD_PURPOSES, type SandboxEmailEventType } from '../../../api/values/email.js';
import { DNS_BREAKS } from './dns-breaks.js';
import type { EmailReportOptions } from './email-triggers.run.js';

// contract §9 and §8: email's outside world — the DNS answers a domain's checks read (the sandbox DNS
// table), and a mail server's reports about one recipient of an email.

const verbs = () => import('./email-triggers.run.js');

export const dnsPublishTrigger = defineVerb({
  name: 'dns.publish',
  summary: "Publish a domain's DNS records in the sandbox DNS, at once or after a propagation delay",
  flags: [
    { flags: '--domain <domain>', help: 'the sending domain (name or id)', required: true, complete: 'domains' },
    { flags: '--visible-after <duration>', help: 'answer as still propagating for this long (service clock: 30s, 10m)' },
    { flags: '--skip <purpose>', help: 'leave out the records of this purpose; repeatable', choices: DNS_RECORD_PURPOSES, repeatable: true },
  ],
  details: [
    'Puts every record the domain asks for (svc domains get) into the sandbox DNS, the values grouped',
    'per name: what `svc domains verify` reads on the local service. Before --visible-after has passed',
    'on the service clock the names answer as propagating, so the domain stays pending. --skip dkim',
    'leaves the DKIM record out, so the next check fails.',
  ].join('\n'),
  examples: ['svc trigger dns.publish --domain send.example.com', 'svc trigger dns.publish --domain send.example.com --visible-after 30s --skip dkim'],
  changes: true,
  api: sandboxDnsEndpoints.put,
  run: async () => (await verbs()).runDnsPublish,
});

export const dnsBreakTrigger = defineVerb({
  name: 'dns.break',
  summary: "Break one of a domain's records in the sandbox DNS so its next check fails",
  flags: [
    { flags: '--domain <domain>', help: 'the sending domain (name or id)', required: true, complete: 'domains' },
    { flags: '--record <purpose>', help: 'the record to break', required: true, choices: DNS_RECORD_PURPOSES },
    { flags: '--how <how>', help: 'missing: the record is removed; wrong: it answers another value', choices: DNS_BREAKS, default: 'missing' },
  ],
  details: [
    "Replaces the record's name in the sandbox DNS with the domain's other records at that name (or",
    'deletes the name when none is left); with --how wrong the record answers a wrong value instead.',
    'A pending domain then fails its next check; a verified one becomes degraded.',
  ].join('\n'),
  examples: ['svc trigger dns.break --domain send.example.com --record dkim', 'svc trigger dns.break --domain send.example.com --record spf --how wrong'],
  changes: true,
  api: sandboxDnsEndpoints.put,
  run: async () => (await verbs()).runDnsBreak,
});

/** One trigger per mail-server report (contract §9: POST /v1/sandbox/email-events). */
const emailReport = (type: string, report: SandboxEmailEventType, summary: string) =>
  defineVerb<EmailReportOptions>({
    name: type,
    summary,
    flags: [
      { flags: '--email <id>', help: 'the email (eml_…)', required: true, complete: 'emails' },
      { flags: '--recipient <addr>', help: 'one of its recipients', required: true },
    ],
    details: `Reports ${type} for one recipient as its mail server or mail client would (the sandbox's \`${report}\` report), with the same\neffects and events; prints that recipient after it. A bounce or a failure needs a recipient on its way (sent or deferred);\nthe others a delivered one (exit 5 otherwise, saying why).`,
    examples: [`svc trigger ${type} --email eml_k0Pw1UTo4AoEs8XfvbDy --recipient ada@example.org`],
    changes: true,
    api: sandboxEmailEndpoints.report,
    run: async () => {
      const { runEmailReport } = await verbs();
      return (ctx, opts) => runEmailReport(ctx, report, opts);
    },
  });

export const emailBouncedTrigger = emailReport('email.bounced', 'bounce', "A recipient's mail server bounces the email (hard): the address is suppressed");
export const emailFailedTrigger = emailReport('email.failed', 'fail', 'The provider gives up on a recipient (a failure other than a bounce; not suppressed)');
export const emailComplainedTrigger = emailReport('email.complained', 'complaint', 'A recipient reports the email as spam: the address is suppressed for good');
export const emailOpenedTrigger = emailReport('email.opened', 'open', 'A recipient opens the email (open tracking)');
export const emailClickedTrigger = emailReport('email.clicked', 'click', 'A recipient clicks a tracked link in the email');
export const emailUnsubscribedTrigger = emailReport('email.unsubscribed', 'unsubscribe', 'A recipient unsubscribes: the address is suppressed (removable)');
