import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { checkFlags } from '../../schema-flags.js';
import { UsageError } from '../../errors.js';
import { resubmitBrand, updateBrand, vetBrand } from '../../../api/resources/brands.js';
import { UpdateBrandBody } from '../../../api/schemas/brands.js';
import { PRICES } from '../../../api/values/prices.js';
import { dollars } from '../../money.js';
import { readDocument } from '../registrations/document-file.js';
import { BRAND_COLUMNS } from './columns.js';
import { BRAND_FIELDS } from './fields.js';
import type { BrandArg, UpdateBrandOptions, VetBrandOptions } from './options.js';

// The brands verbs but `register` (spec: Brand (10DLC); contract §7).

const BRAND_FLAGS: Record<string, string> = Object.fromEntries(BRAND_FIELDS.map((f) => [f.name, f.flag]));

export async function runUpdateBrand(ctx: CliContext, opts: UpdateBrandOptions): Promise<void> {
  const body: Record<string, unknown> = opts.file !== undefined ? await readDocument(ctx, opts.file, '--file') : {};
  for (const [name, v] of Object.entries(opts.fields)) if (v !== undefined) body[name] = v;
  if (!Object.keys(body).length) throw new UsageError('nothing to update: give a field flag (--ein, --website, …) or -f FILE', '--file');
  // The API's own rules, checked before sending: a problem names its flag (or the file's field).
  checkFlags(UpdateBrandBody, body, BRAND_FLAGS);
  await printOne(ctx, await updateBrand(await ctx.client(), opts.brand, body as UpdateBrandBody), BRAND_COLUMNS);
}

export async function runResubmitBrand(ctx: CliContext, opts: BrandArg): Promise<void> {
  const brand = await resubmitBrand(await ctx.client(), opts.brand);
  await printOne(ctx, brand, BRAND_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `brand ${brand.id} resubmitted: ${brand.status}; the registry decides in about an hour`);
}

export async function runVetBrand(ctx: CliContext, opts: VetBrandOptions): Promise<void> {
  const client = await ctx.client();
  // contract §11: vetting is a paid step; its price is shown and confirmed (--yes skips).
  await ctx.confirm(`Ask ${opts.provider} for ${opts.vettingClass} vetting of brand ${opts.brand} for ${dollars(PRICES.brandVetting)}?`);
  await printOne(ctx, await vetBrand(client, opts.brand, { provider: opts.provider, vettingClass: opts.vettingClass }), BRAND_COLUMNS);
}
