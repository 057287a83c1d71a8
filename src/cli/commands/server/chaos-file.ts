import { readFile } from 'node:fs/promises';
import { parse as parseYaml } from 'yaml';
import { ChaosProfileSchema } from '../../../api/schemas/chaos.js';
import type { ChaosProfile } from '../../../api/values/chaos.js';
import { UsageError } from '../../errors.js';

/** `--chaos FILE`: a chaos profile in YAML or JSON, checked as `PUT /v1/sandbox/chaos` checks it. */
export async function readChaosProfile(file: string): Promise<ChaosProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, '--chaos');
  }
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (err) {
    throw new UsageError(`${file}: not valid YAML: ${(err as Error).message.split('\n')[0]}`, '--chaos');
  }
  const parsed = ChaosProfileSchema.safeParse(value);
  if (!parsed.success) {
    const first = parsed.error.issues[0]!;
    throw new UsageError(`${file}: ${first.path.join('.') || 'the profile'}: ${first.message}`, '--chaos');
  }
  return parsed.data as ChaosProfile;
}
