import { defineVerb, runConverted } from '../../verb.js';
import { plainGet, plainList } from '../../plain-verbs.js';
import { portEndpoints, portList } from '../../../api/resources/ports.js';
import { PORT_DOCUMENT_TYPES, PORT_STATUSES } from '../../../api/values/registration.js';
import { PORT_COLUMNS, PORT_LIST_COLUMNS } from './columns.js';
import { createPortOptionsOf } from './options.js';

// svc ports: contract §7 (ports).
const PORT_ARG = { name: 'port', help: 'port id' } as const;

export const verbs = [
  defineVerb({
    name: 'check',
    summary: 'Check whether numbers can be ported in, and why not',
    args: [{ name: 'numbers', help: 'E.164 numbers', variadic: true }],
    examples: ['svc ports check +14155550123 +14155550124'],
    api: portEndpoints.check,
    run: async () => (await import('./ports.run.js')).runCheckPorts,
  }),
  defineVerb({
    name: 'create',
    summary: 'Open a port request (a draft: attach the LOA and a bill, then submit)',
    flags: [
      { flags: '--number <e164>', help: 'a number to port in; repeat for each', repeatable: true },
      { flags: '--authorized-name <name>', help: 'the name on the losing carrier account' },
      { flags: '--account-number <number>', help: 'the account number at the losing carrier' },
      { flags: '--pin <pin>', help: 'the port-out PIN, if the losing carrier set one' },
      { flags: '--street <street>', help: 'service address: street and number' },
      { flags: '--street2 <street2>', help: 'service address: suite, floor' },
      { flags: '--city <city>', help: 'service address: city' },
      { flags: '--state <state>', help: 'service address: two-letter state' },
      { flags: '--zip <zip>', help: 'service address: ZIP code' },
      { flags: '-f, --file <file>', help: 'YAML or JSON with the request (phoneNumbers, authorizedName, accountNumber, pin, serviceAddress); - for stdin', local: { content: 'document' } },
      { flags: '--idempotency-key <key>', help: 'a retry with the same key never opens a second request' },
    ],
    details: `Flags override the file. Next: svc ports attach <port> --type loa FILE, --type bill FILE, then
svc ports submit <port>.`,
    examples: [
      `svc ports create --number +14155550123 --authorized-name "Ada Lovelace" --account-number 991234 \\
      --street "1 Market St" --city "San Francisco" --state CA --zip 94105`,
      'svc ports create -f port.yaml --idempotency-key port-acme-1',
    ],
    changes: true,
    api: portEndpoints.create,
    run: runConverted(async () => (await import('./ports.run.js')).runCreatePort, createPortOptionsOf),
  }),
  defineVerb({
    name: 'attach',
    summary: 'Attach a document to a port request: the letter of authorization (loa) or a recent bill',
    args: [PORT_ARG, { name: 'file', help: 'the document (PDF, image…)', local: {} }],
    flags: [{ flags: '--type <type>', help: 'loa or bill', choices: PORT_DOCUMENT_TYPES, required: true }],
    examples: ['svc ports attach port_tSiKSSom525KjQpOYVaX --type loa loa.pdf', 'svc ports attach port_tSiKSSom525KjQpOYVaX --type bill bill.pdf'],
    changes: true,
    api: portEndpoints.attach,
    run: async () => (await import('./ports.run.js')).runAttach,
  }),
  defineVerb({
    name: 'submit',
    summary: 'Submit a port request (needs an loa and a bill attached); the FOC date follows in about a day',
    args: [PORT_ARG],
    examples: ['svc ports submit port_tSiKSSom525KjQpOYVaX'],
    prompts: true,
    changes: true,
    api: portEndpoints.submit,
    run: async () => (await import('./ports.run.js')).runSubmitPort,
  }),
  plainGet({
    summary: 'Show a port request: status, documents, FOC date',
    arg: PORT_ARG,
    endpoint: portEndpoints.get,
    columns: PORT_COLUMNS,
    examples: ['svc ports get port_tSiKSSom525KjQpOYVaX -o json'],
  }),
  plainList({
    summary: 'List your port requests, newest first',
    endpoint: portList,
    noun: 'ports',
    columns: PORT_LIST_COLUMNS,
    filters: [{ flags: '--status <status>', help: PORT_STATUSES.join(', '), choices: PORT_STATUSES }],
    examples: ['svc ports list', 'svc ports list --status foc_scheduled'],
  }),
  defineVerb({
    name: 'cancel',
    summary: 'Cancel a port request',
    args: [PORT_ARG],
    examples: ['svc ports cancel port_tSiKSSom525KjQpOYVaX'],
    changes: true,
    api: portEndpoints.cancel,
    run: async () => (await import('./ports.run.js')).runCancelPort,
  }),
];
