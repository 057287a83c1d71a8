import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { PRICES } from '../../../api/values/prices.js';
import { addFieldOptions, BRAND_FIELDS, CAMPAIGN_FIELDS, fieldValues } from './fields.js';

export interface RegisterOptions {
  /** Answers given as flags, by API name within each section; a list field one item per line. */
  brand: Record<string, string | undefined>;
  campaign: Record<string, string | undefined>;
  /** `--answers FILE.yaml`: `{brand: {...}, campaign: {...}}` with the API's field names. */
  answers?: string;
  resume?: boolean;
  /** A free test brand: approved at once, no charge (contract §7). */
  mock?: boolean;
  idempotencyKey?: string;
}

const cents = (n: number): string => `$${(n / 100).toFixed(2)}`;

export function registerCommand(parent: Command, ctx: CliContext, runF?: RunF<RegisterOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./register.run.js')).runRegister(ctx, opts));
  const cmd = parent
    .command('register')
    .description('Register a 10DLC brand and its first campaign, step by step (the wizard)')
    .option('--answers <file>', 'YAML or JSON: {brand: {...}, campaign: {...}} with the API field names; flags override it')
    .option('--resume', 'continue with the answers saved when this wizard was interrupted, without asking')
    .option('--mock', 'register a free test brand: approved at once, never charged, not sent to the registry')
    .option('--idempotency-key <key>', 'send the registration with this Idempotency-Key (a retry never registers twice)');
  addFieldOptions(cmd, BRAND_FIELDS);
  addFieldOptions(cmd, CAMPAIGN_FIELDS);
  return cmd
    .addHelpText(
      'after',
      `
Asks for the brand, then the campaign (offering a draft written from a description of your
business: accept it, edit it or write your own), then shows the approval prediction with each failed
check and its suggestion, then the price — brand ${cents(PRICES.brandRegistration)} + campaign ${cents(PRICES.campaignRegistration)} — and registers
both after you confirm (--yes skips). --mock registers a free test brand with no price.

Every answer has a flag (above) or a key in --answers. Without a terminal (or with --no-input or CI)
nothing is asked: every missing answer is listed in one error with its flag (exit 2). Answers typed
so far are saved (config dir, wizards/): run the command again (with or without --mock), or add
--resume, after Ctrl-C. At the end the same registration is printed as a command that asks nothing
(its answers file, the flags given, --yes).

Examples:
  $ svc brands register
  $ svc brands register --mock --answers acme.yaml --yes
  $ svc brands register --legal-name "Acme Dental LLC" --entity-type PRIVATE_PROFIT --ein 12-3456789 \\
      --website https://acme.example --email hello@acme.example --answers campaign.yaml`,
    )
    .action(async (o: Record<string, unknown>) => {
      await run({
        brand: fieldValues(o, BRAND_FIELDS),
        campaign: fieldValues(o, CAMPAIGN_FIELDS),
        answers: o.answers as string | undefined,
        resume: o.resume as boolean | undefined,
        mock: o.mock as boolean | undefined,
        idempotencyKey: o.idempotencyKey as string | undefined,
      });
    });
}
