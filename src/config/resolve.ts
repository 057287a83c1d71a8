import { readBootstrap } from './bootstrap.js';
import { envValue, type Env } from './paths.js';
import {
  LOCAL_PROFILE,
  isBuiltInProfile,
  ProfileNotFoundError,
  localProfile,
  storedProfile,
  type ProfileReader,
} from './profiles.js';

import { OUTPUT_FORMATS, isOutputFormat, type OutputFormat } from './output-formats.js';

export { OUTPUT_FORMATS, isOutputFormat, type OutputFormat };

/** A setting with a bad value; `setting` names where it came from (`--output`, `SVC_BASE_URL`, …). */
export class SettingsError extends Error {
  constructor(
    message: string,
    readonly setting: string,
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}

/** The global flags that carry settings, as parsed (absent when not given). No key flag: cli.md. */
export type SettingsFlags = {
  profile?: string;
  baseUrl?: string;
  subaccount?: string;
  output?: string;
  verbose?: boolean;
};

export type ResolveSettingsInput = {
  flags: SettingsFlags;
  env: Env;
  store: ProfileReader;
  /** The local service's data dir, for the `local` profile's bootstrap.json. */
  dataDir: string;
};

export type SettingsSources = {
  profileName: 'flag' | 'env' | 'config' | 'default';
  apiKey: 'env' | 'profile' | 'bootstrap' | 'none';
  baseUrl: 'flag' | 'env' | 'profile' | 'bootstrap' | 'default';
  subaccount: 'flag' | 'env' | 'profile' | 'none';
  output: 'flag' | 'env' | 'none';
  verbose: 'flag' | 'env' | 'default';
};

export type Settings = {
  profileName: string;
  /**
   * The profile chosen without --profile and SVC_PROFILE (`svc profiles use`, else `local`): what a
   * command gets once they are gone, which a refusal's hint may suggest.
   */
  configuredProfile: string;
  /** No trailing slash. */
  baseUrl: string;
  apiKey: string | undefined;
  /** Sent as `Service-Subaccount` when set. */
  subaccount: string | undefined;
  /** Absent when nothing asked for a format: the output layer picks by TTY. */
  output?: OutputFormat;
  verbose: boolean;
  /** The resolved profile is the built-in `local` one: the CLI may start the local service. */
  isLocal: boolean;
  source: SettingsSources;
};

/**
 * Resolves every setting of cli.md's global table with the precedence flag > env > profile > default
 * (conventions: config). Pure: the environment and the store are passed in.
 */
export function resolveSettings(input: ResolveSettingsInput): Settings {
  const { flags, env, store, dataDir } = input;

  // --profile / SVC_PROFILE / `svc profiles use` / local
  let profileName: string;
  let profileNameSource: SettingsSources['profileName'];
  const envProfile = envValue(env, 'SVC_PROFILE');
  const configuredProfile = store.current();
  if (nonEmpty(flags.profile)) {
    profileName = flags.profile;
    profileNameSource = 'flag';
  } else if (envProfile !== undefined) {
    profileName = envProfile;
    profileNameSource = 'env';
  } else {
    profileName = configuredProfile;
    profileNameSource = profileName === LOCAL_PROFILE ? 'default' : 'config';
  }

  const stored = store.getStored(profileName);
  const isLocal = isBuiltInProfile(profileName);
  if (!isLocal && stored === undefined) throw new ProfileNotFoundError(profileName);
  const { profile, sources } = isLocal
    ? localProfile(readBootstrap(dataDir), stored, profileName)
    : storedProfile(profileName, stored ?? {});

  // SVC_API_KEY / profile (or bootstrap.json for local); never a flag.
  const envKey = envValue(env, 'SVC_API_KEY');
  const apiKey = envKey ?? profile.apiKey;
  const apiKeySource: SettingsSources['apiKey'] = envKey !== undefined ? 'env' : sources.apiKey;

  // --base-url / SVC_BASE_URL / profile / bootstrap.json / default
  const envBaseUrl = envValue(env, 'SVC_BASE_URL');
  let baseUrl: string;
  let baseUrlSource: SettingsSources['baseUrl'];
  if (nonEmpty(flags.baseUrl)) {
    baseUrl = normalizeBaseUrl(flags.baseUrl, '--base-url');
    baseUrlSource = 'flag';
  } else if (envBaseUrl !== undefined) {
    baseUrl = normalizeBaseUrl(envBaseUrl, 'SVC_BASE_URL');
    baseUrlSource = 'env';
  } else {
    baseUrl = normalizeBaseUrl(profile.baseUrl, `profile "${profileName}" baseUrl`);
    baseUrlSource = sources.baseUrl;
  }

  // --subaccount / SVC_SUBACCOUNT / the profile's stored context. An explicit empty flag
  // (`--subaccount ''`) acts as the account itself, overriding env and the stored context.
  const envSubaccount = envValue(env, 'SVC_SUBACCOUNT');
  let subaccount: string | undefined;
  let subaccountSource: SettingsSources['subaccount'];
  if (flags.subaccount !== undefined) {
    subaccount = flags.subaccount === '' ? undefined : flags.subaccount;
    subaccountSource = 'flag';
  } else if (envSubaccount !== undefined) {
    subaccount = envSubaccount;
    subaccountSource = 'env';
  } else {
    subaccount = profile.subaccount;
    subaccountSource = subaccount !== undefined ? 'profile' : 'none';
  }

  // -o / SVC_OUTPUT; no default here: table on a TTY is the output layer's call.
  const envOutput = envValue(env, 'SVC_OUTPUT');
  let output: OutputFormat | undefined;
  let outputSource: SettingsSources['output'] = 'none';
  if (nonEmpty(flags.output)) {
    output = parseOutput(flags.output, '--output');
    outputSource = 'flag';
  } else if (envOutput !== undefined) {
    output = parseOutput(envOutput, 'SVC_OUTPUT');
    outputSource = 'env';
  }

  // -v / SVC_DEBUG
  const envDebug = envValue(env, 'SVC_DEBUG');
  let verbose = false;
  let verboseSource: SettingsSources['verbose'] = 'default';
  if (flags.verbose !== undefined) {
    verbose = flags.verbose;
    verboseSource = 'flag';
  } else if (envDebug !== undefined) {
    verbose = isTruthy(envDebug);
    verboseSource = 'env';
  }

  const settings: Settings = {
    profileName,
    configuredProfile,
    baseUrl,
    apiKey,
    subaccount,
    verbose,
    isLocal,
    source: {
      profileName: profileNameSource,
      apiKey: apiKey === undefined ? 'none' : apiKeySource,
      baseUrl: baseUrlSource,
      subaccount: subaccountSource,
      output: outputSource,
      verbose: verboseSource,
    },
  };
  if (output !== undefined) settings.output = output;
  return settings;
}

function nonEmpty(value: string | undefined): value is string {
  return value !== undefined && value !== '';
}

function parseOutput(value: string, setting: string): OutputFormat {
  if (isOutputFormat(value)) return value;
  throw new SettingsError(`${setting}: unknown format "${value}" (use one of ${OUTPUT_FORMATS.join(', ')})`, setting);
}

/** `SVC_DEBUG=1`, `true`, `yes`… turn the trace on; `0`, `false`, `no`, `off` leave it off. */
function isTruthy(value: string): boolean {
  return !['0', 'false', 'no', 'off'].includes(value.trim().toLowerCase());
}

function normalizeBaseUrl(value: string, setting: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingsError(`${setting}: "${value}" is not a URL`, setting);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new SettingsError(`${setting}: "${value}" must be an http or https URL`, setting);
  }
  return value.replace(/\/+$/, '');
}
