// The local signing secret of `svc webhooks listen`: generated once per profile and kept in the
// config dir (listen-secrets.json, mode 0600), so a handler configured with it keeps verifying
// across restarts (cli.md: "--secret whsec_… to fix it").
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import { CliError } from '../../errors.js';

export const LISTEN_SECRETS_FILE = 'listen-secrets.json';

interface SecretsFile {
  profiles: Record<string, string>;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `whsec_` and 32 base62 characters, like the service's endpoint secrets. */
export function newListenSecret(): string {
  let s = 'whsec_';
  for (let i = 0; i < 32; i++) s += BASE62[randomInt(62)];
  return s;
}

function read(path: string): SecretsFile {
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as Partial<SecretsFile>;
    if (value && typeof value.profiles === 'object' && value.profiles !== null) return { profiles: { ...value.profiles } };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw new CliError(`${path} is not readable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); fix or delete it`);
  }
  throw new CliError(`${path} is not a listen secrets file; fix or delete it`);
}

/** The profile's secret, created (and saved) on first use. */
export function listenSecretFor(configDir: string, profile: string): { secret: string; created: boolean } {
  const path = join(configDir, LISTEN_SECRETS_FILE);
  const file = read(path);
  const existing = file.profiles[profile];
  if (typeof existing === 'string' && existing.startsWith('whsec_')) return { secret: existing, created: false };
  const secret = newListenSecret();
  file.profiles[profile] = secret;
  mkdirSync(configDir, { recursive: true, mode: 0o700 });
  const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  renameSync(tmp, path);
  return { secret, created: true };
}
