import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';

/** A YAML or JSON document from a file, or stdin for `-` (campaign files, registration files). */
export async function readDocument(ctx: CliContext, file: string, flag: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = file === '-' ? await readStdin(ctx.io, flag) : await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${flag}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, flag);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err) {
    throw new UsageError(`${flag}: ${file === '-' ? 'standard input' : file} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`, flag);
  }
  if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new UsageError(`${flag}: ${file === '-' ? 'standard input' : file} must be a mapping of fields`, flag);
  return data as Record<string, unknown>;
}

/** Flag values (text, by API name) typed as the API takes them: a list split by line, a boolean read. */
export function typedFields(values: Record<string, string | undefined>, kinds: Readonly<Record<string, string>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(values)) {
    if (v === undefined) continue;
    const kind = kinds[name];
    if (kind === 'list') out[name] = v.split('\n').filter((s) => s.trim() !== '');
    else if (kind === 'boolean') out[name] = /^(true|yes|1)$/i.test(v) ? true : /^(false|no|0)$/i.test(v) ? false : v;
    else out[name] = v;
  }
  return out;
}
