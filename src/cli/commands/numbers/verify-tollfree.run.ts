import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { printOne } from '../../print-resource.js';
import { UsageError } from '../../errors.js';
import { numberRef } from '../../phone-numbers.js';
import { verifyTollfree } from '../../../api/resources/numbers.js';
import type { VerifyTollfreeBody } from '../../../api/schemas/numbers.js';
import { NUMBER_COLUMNS } from './columns.js';
import type { TollfreeFields, VerifyTollfreeOptions } from './verify-tollfree.js';

/** Field, its flag, the prompt, and whether the service requires it (contract §5). */
const FIELDS: ReadonlyArray<{ key: keyof TollfreeFields; flag: string; prompt: string; required: boolean }> = [
  { key: 'businessName', flag: '--business-name', prompt: 'Business name', required: true },
  { key: 'website', flag: '--website', prompt: 'Business website (https://…; leave empty if none)', required: false },
  { key: 'useCase', flag: '--use-case', prompt: 'Use case (e.g. appointment reminders)', required: true },
  { key: 'useCaseSummary', flag: '--use-case-summary', prompt: 'Use case summary', required: true },
  { key: 'sampleMessage', flag: '--sample-message', prompt: 'Sample message (include opt-out words, e.g. "Reply STOP to opt out")', required: true },
  { key: 'optInWorkflow', flag: '--opt-in-workflow', prompt: 'How recipients opt in', required: true },
  { key: 'monthlyVolume', flag: '--monthly-volume', prompt: 'Messages per month', required: true },
];

/** Reads --from-file: a YAML (or JSON, which is YAML) mapping of the verification fields. */
export async function readTollfreeFile(file: string): Promise<TollfreeFields> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`--from-file: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, '--from-file');
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err) {
    throw new UsageError(`--from-file: ${file} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`, '--from-file');
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`--from-file: ${file} must hold a mapping of fields (businessName: …)`, '--from-file');
  const byName = new Map<string, keyof TollfreeFields>();
  for (const f of FIELDS) {
    byName.set(f.key, f.key);
    byName.set(f.flag.slice(2), f.key);
  }
  const out: TollfreeFields = {};
  for (const [name, value] of Object.entries(data as Record<string, unknown>)) {
    const key = byName.get(name);
    if (!key) throw new UsageError(`--from-file: unknown field "${name}" in ${file}; known: ${FIELDS.map((f) => f.key).join(', ')}`, '--from-file');
    if (value === null || value === undefined) continue;
    if (typeof value !== 'string' && typeof value !== 'number') throw new UsageError(`--from-file: ${name} must be text`, '--from-file');
    out[key] = String(value);
  }
  return out;
}

/** Checks the merged fields into the request body (exit 2 naming the flag). */
export function toVerifyBody(fields: TollfreeFields): VerifyTollfreeBody {
  for (const f of FIELDS) {
    if (f.required && !fields[f.key]?.trim()) throw new UsageError(`${f.flag} is required`, f.flag);
  }
  const volume = fields.monthlyVolume!.trim().replace(/[,_]/g, '');
  if (!/^\d+$/.test(volume) || Number(volume) < 1) throw new UsageError(`--monthly-volume: "${fields.monthlyVolume}" is not a whole number of messages`, '--monthly-volume');
  const website = fields.website?.trim();
  if (website && !/^https?:\/\/\S+$/i.test(website)) throw new UsageError(`--website: "${website}" is not an http(s) URL`, '--website');
  return {
    businessName: fields.businessName!.trim(),
    ...(website ? { website } : {}),
    useCase: fields.useCase!.trim(),
    useCaseSummary: fields.useCaseSummary!.trim(),
    sampleMessage: fields.sampleMessage!.trim(),
    optInWorkflow: fields.optInWorkflow!.trim(),
    monthlyVolume: Number(volume),
  };
}

export async function runVerifyTollfree(ctx: CliContext, opts: VerifyTollfreeOptions): Promise<void> {
  const ref = numberRef(opts.number);
  const fromFile = opts.fromFile === undefined ? {} : await readTollfreeFile(opts.fromFile);
  const fields: TollfreeFields = { ...fromFile };
  for (const f of FIELDS) if (opts.fields[f.key] !== undefined) fields[f.key] = opts.fields[f.key];

  const missing = FIELDS.filter((f) => f.required && !fields[f.key]?.trim());
  if (missing.length && !ctx.canPrompt) {
    const flags = missing.map((f) => f.flag);
    throw new UsageError(`missing ${flags.join(', ')} (give them as flags or in --from-file; prompting is off: no terminal, --no-input or CI)`, flags[0]);
  }
  // On a terminal, ask for what is missing; the website too unless given (even empty): it is
  // optional, but its absence is a rejection 72 h later.
  const toAsk = FIELDS.filter((f) => (f.required ? !fields[f.key]?.trim() : ctx.canPrompt && fields[f.key] === undefined));
  for (const f of toAsk) {
    const answer = await ctx.prompter.input(f.prompt, {
      flag: f.flag,
      validate: (v) => (f.required && !v.trim() ? `${f.prompt} is required` : f.key === 'monthlyVolume' && !/^\d[\d,_]*$/.test(v.trim()) ? 'a whole number' : true),
    });
    fields[f.key] = answer;
  }
  const body = toVerifyBody(fields);
  if (!body.website && ctx.io.stderrTTY) notice(ctx, 'note: no --website; the carrier rejects verifications without one');
  const number = await verifyTollfree(await ctx.client(), ref, body);
  await printOne(ctx, number, NUMBER_COLUMNS);
  if (ctx.io.stderrTTY) notice(ctx, `toll-free verification submitted for ${number.phoneNumber}: ${number.tfvStatus}; the carrier decides in about 72 hours`);
}
