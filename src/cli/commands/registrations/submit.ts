import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { PRICES } from '../../../api/values/prices.js';

export interface SubmitOptions {
  file: string;
  mock?: boolean;
  idempotencyKey?: string;
}

export function submitCommand(parent: Command, ctx: CliContext, runF?: RunF<SubmitOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./registrations.run.js')).runSubmit(ctx, opts));
  const price = `$${((PRICES.brandRegistration + PRICES.campaignRegistration) / 100).toFixed(2)}`;
  return parent
    .command('submit')
    .description(`Register a brand and its first campaign from a file, both or neither (${price}; --mock free)`)
    .requiredOption('-f, --file <file>', 'YAML or JSON {brand: {...}, campaign: {...}} (API field names); - for stdin')
    .option('--mock', 'a free test brand: approved at once, never charged')
    .option('--idempotency-key <key>', 'a retry with the same key never registers twice')
    .addHelpText(
      'after',
      `
Checked locally with the API's schema first; the price is shown and confirmed (--yes skips). The
wizard svc brands register asks for the same answers one at a time.

Examples:
  $ svc registrations submit -f registration.yaml
  $ svc registrations submit -f registration.yaml --mock --yes`,
    )
    .action(async (o: SubmitOptions) => run({ file: o.file, mock: o.mock, idempotencyKey: o.idempotencyKey }));
}
