// A refusal caused by the key's mode names where the key came from and how to get one of
// the other mode. `export SVC_PROFILE=local-test` is easy to forget; the billing 403 ("test keys move
// no money") alone does not say that the profile chose the key. The ONE place that wording lives:
// main.ts adds it to any command's API error, `svc emails wait` to its own refusal.
// Plain values only: main.ts imports this at start-up.
import { KEY_MODE_REFUSAL_PATH, keyModeOf, type KEY_MODES } from '../api/values/keys.js';
import { BUILT_IN_PROFILE_OF_MODE, isBuiltInProfile } from '../config/built-in-profiles.js';
import type { Settings } from '../config/resolve.js';

export type KeyMode = (typeof KEY_MODES)[number];

/** What the hint reads of the resolved settings (context.ts keeps the last ones resolved). */
export type KeyOrigin = Pick<Settings, 'profileName' | 'configuredProfile' | 'apiKey'> & { source: Pick<Settings['source'], 'profileName' | 'apiKey'> };

interface RefusalLike {
  code: string;
  details?: unknown;
}

const detailPaths = (details: unknown): string[] =>
  Array.isArray(details) ? details.map((d: { path?: unknown }) => (Array.isArray(d?.path) ? d.path.join('.') : '')) : [];

/**
 * The mode of key an API refusal asks for, when the key's mode caused it: contract §2, a test key
 * moving money or minting a live key (`forbidden` naming the credential); spec: Send body, a live
 * send from a number without a campaign (`conflict` on `body.from`: a test key needs none).
 */
export function modeAskedBy(err: RefusalLike): KeyMode | undefined {
  const paths = detailPaths(err.details);
  if (err.code === 'forbidden' && paths.includes(KEY_MODE_REFUSAL_PATH.join('.'))) return 'live';
  if (err.code === 'conflict' && paths.includes('body.from')) return 'test';
  return undefined;
}

const PROFILE_CHOSEN_BY: Record<Settings['source']['profileName'], string> = {
  flag: 'from --profile',
  env: 'from SVC_PROFILE',
  config: 'chosen with `svc profiles use`',
  default: 'the default',
};

/**
 * `the active profile is local-test (from SVC_PROFILE), a test key: run with --profile local or unset
 * SVC_PROFILE`. Undefined when the key already has the mode asked for (or there is no key).
 */
export function keyOriginHint(origin: KeyOrigin, wanted: KeyMode): string | undefined {
  const mode = keyModeOf(origin.apiKey);
  if (!mode || mode === wanted) return undefined;
  if (origin.source.apiKey === 'env') {
    return `the key is SVC_API_KEY's, a ${mode} key: set SVC_API_KEY to a ${wanted} key, or unset it to use the profile's`;
  }
  const name = origin.profileName;
  const other = isBuiltInProfile(name) ? BUILT_IN_PROFILE_OF_MODE[wanted] : undefined;
  const fixes = [other ? `run with --profile ${other}` : `use a profile with a ${wanted} key (svc profiles list)`];
  // What the command gets without SVC_PROFILE: offered only when that is the profile needed.
  if (origin.source.profileName === 'env' && other && origin.configuredProfile === other) fixes.push('unset SVC_PROFILE');
  if (origin.source.profileName === 'config' && other) fixes.push(`\`svc profiles use ${other}\``);
  return `the active profile is ${name} (${PROFILE_CHOSEN_BY[origin.source.profileName]}), a ${mode} key: ${fixes.join(' or ')}`;
}

/**
 * The line main.ts adds under an API error the key's mode caused, when the key came from a choice
 * the user made (--profile, SVC_PROFILE, `svc profiles use`, SVC_API_KEY): the default profile's
 * refusals already say how to go on (`messages send` names `--profile local-test`).
 */
export function refusalOriginHint(err: RefusalLike, origin: KeyOrigin | undefined): string | undefined {
  const wanted = modeAskedBy(err);
  if (!wanted || !origin) return undefined;
  if (origin.source.profileName === 'default' && origin.source.apiKey !== 'env') return undefined;
  return keyOriginHint(origin, wanted);
}
