import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import { enumOption, type RunF } from '../../command-kit.js';
import { VETTING_CLASSES, VETTING_PROVIDERS } from '../../../api/values/registration.js';
import { PRICES } from '../../../api/values/prices.js';

export interface VetBrandOptions {
  brand: string;
  provider: (typeof VETTING_PROVIDERS)[number];
  vettingClass: (typeof VETTING_CLASSES)[number];
}

export function vetCommand(parent: Command, ctx: CliContext, runF?: RunF<VetBrandOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./brands.run.js')).runVetBrand(ctx, opts));
  return parent
    .command('vet')
    .description(`Ask for external vetting of a brand (a higher score, higher limits; $${(PRICES.brandVetting / 100).toFixed(2)})`)
    .argument('<brand>', 'brand id')
    .addOption(enumOption('--provider <provider>', 'the vetting partner', VETTING_PROVIDERS).makeOptionMandatory())
    .addOption(enumOption('--class <class>', 'the kind of vetting', VETTING_CLASSES).default(VETTING_CLASSES[0]))
    .addHelpText('after', '\nAsks to confirm the price (--yes skips).\n\nExamples:\n  $ svc brands vet 0b6f… --provider AEGIS\n  $ svc brands vet 0b6f… --provider WMC --class ENHANCED --yes')
    .action(async (brand: string, o: { provider: VetBrandOptions['provider']; class: VetBrandOptions['vettingClass'] }) => run({ brand, provider: o.provider, vettingClass: o.class }));
}
