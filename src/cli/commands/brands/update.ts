import type { Command } from 'commander';
import type { CliContext } from '../../context.js';
import type { RunF } from '../../command-kit.js';
import { addFieldOptions, BRAND_FIELDS, fieldValues } from './fields.js';

export interface UpdateBrandOptions {
  brand: string;
  /** Flags by API name. */
  fields: Record<string, string | undefined>;
  /** `-f FILE|-`: YAML or JSON with any updatable field (pageConfig and compliancePages too). */
  file?: string;
}

export function updateCommand(parent: Command, ctx: CliContext, runF?: RunF<UpdateBrandOptions>): Command {
  const run = runF ?? (async (opts) => (await import('./brands.run.js')).runUpdateBrand(ctx, opts));
  const cmd = parent
    .command('update')
    .description("Change a brand's details, or the design and texts of its hosted opt-in page")
    .argument('<brand>', 'brand id')
    .option('-f, --file <file>', 'YAML or JSON with the fields to change (API names; pageConfig, compliancePages); - for stdin');
  addFieldOptions(cmd, BRAND_FIELDS);
  return cmd
    .addHelpText(
      'after',
      `
Flags override the file. A rejected brand is sent to the registry again with svc brands resubmit.

Examples:
  $ svc brands update 0b6f… --ein 12-3456789
  $ svc brands update 0b6f… -f page.yaml     # pageConfig: {headline: …, accentColor: "#1a73e8"}`,
    )
    .action(async (brand: string, o: Record<string, unknown>) => run({ brand, fields: fieldValues(o, BRAND_FIELDS), file: o.file as string | undefined }));
}
