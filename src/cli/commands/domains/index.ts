import { defineVerb } from '../../verb.js';
import { plainList } from '../../plain-verbs.js';
import { domainEndpoints, domainList } from '../../../api/resources/domains.js';
import { DOMAIN_STATUSES } from '../../../api/values/email.js';
import { DOMAIN_LIST_COLUMNS } from './columns.js';
import { DEFAULT_VERIFY_TIMEOUT } from './verify-options.js';

// svc domains: spec Email domains; contract §8.

/** The `<domain>` argument of get, verify and delete: the API addresses domains by id; a name is looked up. */
const DOMAIN_ARG = { name: 'domain', help: 'the domain name (send.example.com) or its id (dom_…)', complete: 'domains' } as const;

export const verbs = [
  defineVerb({
    name: 'add',
    summary: 'Add a sending domain and print the DNS records to publish',
    args: [{ name: 'domain', help: 'the domain mail is sent from, e.g. send.example.com' }],
    details: `Prints the domain, then its records as a table (type, name, value, purpose, status). -o zone prints
the records as zone-file lines to paste into a DNS provider; -o json and -o yaml the whole domain.
Publish the records, then: svc domains verify <domain> --wait. On the local service, publish them in
the sandbox DNS: svc trigger dns.publish --domain <domain>.`,
    examples: ['svc domains add send.example.com', 'svc domains add send.example.com -o zone'],
    changes: true,
    api: domainEndpoints.create,
    run: async () => (await import('./domains.run.js')).runAddDomain,
  }),
  plainList({
    summary: 'List your sending domains, newest first',
    endpoint: domainList,
    noun: 'domains',
    columns: DOMAIN_LIST_COLUMNS,
    filters: [{ flags: '--status <status>', help: DOMAIN_STATUSES.join(', '), choices: DOMAIN_STATUSES }],
    examples: ['svc domains list', 'svc domains list --status pending --all'],
  }),
  defineVerb({
    name: 'get',
    summary: 'Show a sending domain and its records with their status',
    args: [DOMAIN_ARG],
    details: '-o zone prints the records as zone-file lines.',
    examples: ['svc domains get send.example.com', 'svc domains get send.example.com -o zone'],
    api: domainEndpoints.get,
    run: async () => (await import('./domains.run.js')).runGetDomain,
  }),
  defineVerb({
    name: 'verify',
    summary: "Check a domain's DNS records now (with --wait, until verified or failed)",
    args: [DOMAIN_ARG],
    flags: [
      { flags: '--wait', help: 're-check until the domain is verified or failed (pending while DNS propagates keeps waiting)' },
      { flags: '--timeout <duration>', help: 'with --wait, give up after this long (30s, 5m)', default: DEFAULT_VERIFY_TIMEOUT },
    ],
    details: `Prints the domain and each record's status (valid, invalid, missing, pending). With --wait the
check is repeated every second while the domain is pending, each record's status said on stderr
when it changes.

Exit status: 0 when the domain is verified or still pending (without --wait); 1 when it is failed
or degraded (a required record is missing or wrong: sending from it is refused) or when --wait
timed out. Exit 1, "any other failure", because the check itself succeeded: its answer is the
failure, and codes 2-8 name API errors.`,
    examples: ['svc domains verify send.example.com', 'svc domains verify send.example.com --wait --timeout 2m'],
    changes: true,
    api: domainEndpoints.verify,
    run: async () => (await import('./domains.run.js')).runVerifyDomainVerb,
  }),
  defineVerb({
    name: 'delete',
    aliases: ['remove'],
    summary: 'Delete a sending domain (asks first)',
    args: [DOMAIN_ARG],
    details: 'Without a terminal, pass --yes (otherwise exit 2, nothing deleted). `remove`, its old word, still works.',
    examples: ['svc domains delete send.example.com', 'svc domains delete send.example.com --yes'],
    prompts: true,
    changes: true,
    api: domainEndpoints.delete,
    run: async () => (await import('./domains.run.js')).runDeleteDomain,
  }),
];
