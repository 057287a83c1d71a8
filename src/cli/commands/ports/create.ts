import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';

export interface CreatePortOptions {
  numbers?: string[];
  authorizedName?: string;
  accountNumber?: string;
  pin?: string;
  address: { street?: string; street2?: string; city?: string; state?: string; zip?: string };
  file?: string;
  idempotencyKey?: string;
}

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

export function createCommand(parent: Command, ctx: CliContext, runF?: RunF<CreatePortOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./ports.run.js')).runCreatePort(ctx, opts));
  return parent
    .command('create')
    .description('Open a port request (a draft: attach the LOA and a bill, then submit)')
    .option('--number <e164>', 'a number to port in; repeat for each', collect)
    .option('--authorized-name <name>', 'the name on the losing carrier account')
    .option('--account-number <number>', 'the account number at the losing carrier')
    .option('--pin <pin>', 'the port-out PIN, if the losing carrier set one')
    .option('--street <street>', 'service address: street and number')
    .option('--street2 <street2>', 'service address: suite, floor')
    .option('--city <city>', 'service address: city')
    .option('--state <state>', 'service address: two-letter state')
    .option('--zip <zip>', 'service address: ZIP code')
    .option('-f, --file <file>', 'YAML or JSON with the request (phoneNumbers, authorizedName, accountNumber, pin, serviceAddress); - for stdin')
    .option('--idempotency-key <key>', 'a retry with the same key never opens a second request')
    .addHelpText(
      'after',
      `
Flags override the file. Next: svc ports attach <port> --type loa FILE, --type bill FILE, then
svc ports submit <port>.

Examples:
  $ svc ports create --number +14155550123 --authorized-name "Ada Lovelace" --account-number 991234 \\
      --street "1 Market St" --city "San Francisco" --state CA --zip 94105
  $ svc ports create -f port.yaml --idempotency-key port-acme-1`,
    )
    .action(async (o: { number?: string[]; authorizedName?: string; accountNumber?: string; pin?: string; street?: string; street2?: string; city?: string; state?: string; zip?: string; file?: string; idempotencyKey?: string }) =>
      run({
        numbers: o.number,
        authorizedName: o.authorizedName,
        accountNumber: o.accountNumber,
        pin: o.pin,
        address: { street: o.street, street2: o.street2, city: o.city, state: o.state, zip: o.zip },
        file: o.file,
        idempotencyKey: o.idempotencyKey,
      }),
    );
}
