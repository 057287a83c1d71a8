import fs from 'node:fs';
import path from 'node:path';
// Type-only: erased at compile time. The module itself is loaded lazily in openProfileStore, because
// it costs ~68 ms and `svc --help` must never pay for it (conventions: --help reads no config).
import type Conf from 'conf';
import { readBootstrap, type Bootstrap } from './bootstrap.js';
import { CONFIG_FILE } from './paths.js';
import { LOCAL_PROFILE, LOCAL_TEST_PROFILE, BUILT_IN_PROFILES, isBuiltInProfile } from './built-in-profiles.js';
export { LOCAL_PROFILE, LOCAL_TEST_PROFILE, BUILT_IN_PROFILES, isBuiltInProfile };

/** `svc server start`'s default address (contract §1). */
export const DEFAULT_BASE_URL = 'http://127.0.0.1:4010';

/** One profile as stored in the config file (cli.md "Configuration"). Absent fields are omitted. */
export type StoredProfile = {
  baseUrl?: string;
  apiKey?: string;
  subaccount?: string;
};

/** Fields for `set`: merged into the stored profile; `undefined` keeps, `null` clears the field. */
export type ProfileUpdate = {
  baseUrl?: string | null;
  apiKey?: string | null;
  subaccount?: string | null;
};

/** A profile as the CLI sees it: stored fields over the built-in defaults. */
export type Profile = {
  name: string;
  baseUrl: string;
  apiKey?: string;
  subaccount?: string;
  /** Only `local`: it exists whether or not anything is stored for it. */
  builtIn: boolean;
};

/** Where each field of a resolved profile came from. */
export type ProfileSources = {
  baseUrl: 'profile' | 'bootstrap' | 'default';
  apiKey: 'profile' | 'bootstrap' | 'none';
};

/** The whole config file: exactly `{ currentProfile, profiles: { NAME: {...} } }`. */
type ConfigFile = {
  currentProfile?: string;
  profiles?: Record<string, StoredProfile>;
};

/** Thrown by `use`, `remove`, `setSubaccount` and settings resolution for a profile that does not exist. */
export class ProfileNotFoundError extends Error {
  constructor(readonly profile: string) {
    super(`profile "${profile}" does not exist (see: svc profiles list)`);
    this.name = 'ProfileNotFoundError';
  }
}

// Names become JSON keys and appear in file names (cursor files per profile): keep them plain.
const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export function assertProfileName(name: string): void {
  if (!PROFILE_NAME.test(name)) {
    throw new Error(
      `invalid profile name "${name}": use 1-64 letters, digits, "_", "-" or ".", starting with a letter or digit`,
    );
  }
}

/**
 * The `local` profile: bootstrap.json's baseUrl and live key, under any field stored for `local`
 * (e.g. its sub-account context, or a base URL for a service started on another port).
 */
export function localProfile(
  bootstrap: Bootstrap | undefined,
  stored: StoredProfile | undefined,
  name: string = LOCAL_PROFILE,
): { profile: Profile; sources: ProfileSources } {
  const baseUrl = stored?.baseUrl ?? bootstrap?.baseUrl ?? DEFAULT_BASE_URL;
  const apiKey = stored?.apiKey ?? (name === LOCAL_TEST_PROFILE ? bootstrap?.testKey : bootstrap?.liveKey);
  return {
    profile: withoutUndefined({
      name,
      baseUrl,
      apiKey,
      subaccount: stored?.subaccount,
      builtIn: true,
    }),
    sources: {
      baseUrl: stored?.baseUrl !== undefined ? 'profile' : bootstrap !== undefined ? 'bootstrap' : 'default',
      apiKey: stored?.apiKey !== undefined ? 'profile' : apiKey !== undefined ? 'bootstrap' : 'none',
    },
  };
}

/** A stored (non-built-in) profile; with no stored base URL it talks to the default address. */
export function storedProfile(
  name: string,
  stored: StoredProfile,
): { profile: Profile; sources: ProfileSources } {
  return {
    profile: withoutUndefined({
      name,
      baseUrl: stored.baseUrl ?? DEFAULT_BASE_URL,
      apiKey: stored.apiKey,
      subaccount: stored.subaccount,
      builtIn: false,
    }),
    sources: {
      baseUrl: stored.baseUrl !== undefined ? 'profile' : 'default',
      apiKey: stored.apiKey !== undefined ? 'profile' : 'none',
    },
  };
}

/** What settings resolution needs from a store: lets tests pass a plain object. */
export interface ProfileReader {
  current(): string;
  getStored(name: string): StoredProfile | undefined;
}

/** Profiles in one JSON file through `conf`, mode 0600 (cli.md "Configuration"). */
export class ProfileStore implements ProfileReader {
  /**
   * @param dataDir the local service's data dir, for the `local` profile's bootstrap.json; without
   *   it `local` has only its defaults and stored fields.
   */
  constructor(
    private readonly conf: Conf<ConfigFile>,
    private readonly dataDir?: string,
  ) {}

  /** The config file's path (for messages such as `svc profiles list`). */
  get path(): string {
    return this.conf.path;
  }

  /** Every profile, the built-in ones (`local`, `local-test`) first, the rest by name. */
  list(): Profile[] {
    const stored = this.readFile().profiles;
    const others = Object.keys(stored)
      .filter((name) => !isBuiltInProfile(name))
      .sort()
      .map((name) => storedProfile(name, stored[name]).profile);
    return [...BUILT_IN_PROFILES.map((name) => this.local(Object.hasOwn(stored, name) ? stored[name] : undefined, name)), ...others];
  }

  /** The profile as the CLI uses it, or `undefined` if it does not exist (built-in ones always do). */
  get(name: string): Profile | undefined {
    const stored = this.getStored(name);
    if (isBuiltInProfile(name)) return this.local(stored, name);
    return stored === undefined ? undefined : storedProfile(name, stored).profile;
  }

  /** Only what is stored for the profile, without built-in defaults. */
  getStored(name: string): StoredProfile | undefined {
    const profiles = this.readFile().profiles;
    return Object.hasOwn(profiles, name) ? { ...profiles[name] } : undefined;
  }

  /** Creates the profile or merges `update` into it; returns what is now stored. */
  set(name: string, update: ProfileUpdate): StoredProfile {
    assertProfileName(name);
    const file = this.readFile();
    const next: StoredProfile = { ...(Object.hasOwn(file.profiles, name) ? file.profiles[name] : {}) };
    for (const field of ['baseUrl', 'apiKey', 'subaccount'] as const) {
      const value = update[field];
      if (value === null) delete next[field];
      else if (value !== undefined) next[field] = value;
    }
    this.writeFile({ ...file, profiles: { ...file.profiles, [name]: next } });
    return { ...next };
  }

  /**
   * Deletes the profile; if it was the current one, `local` becomes current. Removing `local` only
   * drops what is stored for it (it is built in).
   */
  remove(name: string): void {
    const file = this.readFile();
    const stored = Object.hasOwn(file.profiles, name);
    if (!stored && !isBuiltInProfile(name)) throw new ProfileNotFoundError(name);
    const profiles = { ...file.profiles };
    delete profiles[name];
    const next: ConfigFile = { ...file, profiles };
    if (file.currentProfile === name) delete next.currentProfile;
    if (stored || next.currentProfile !== file.currentProfile) this.writeFile(next);
  }

  /** Makes `name` the default profile; it must exist (`local` always does). */
  use(name: string): void {
    const file = this.readFile();
    if (!isBuiltInProfile(name) && !Object.hasOwn(file.profiles, name)) throw new ProfileNotFoundError(name);
    this.writeFile({ ...file, currentProfile: name });
  }

  /** The default profile's name: the one set with `use`, else `local`. */
  current(): string {
    return this.readFile().currentProfile ?? LOCAL_PROFILE;
  }

  /** Stores (`id`) or clears (`null`) the profile's sub-account context (`svc context use|clear`). */
  setSubaccount(name: string, id: string | null): void {
    if (!isBuiltInProfile(name) && this.getStored(name) === undefined) throw new ProfileNotFoundError(name);
    if (id === '') throw new Error('sub-account id must not be empty');
    this.set(name, { subaccount: id });
  }

  private local(stored: StoredProfile | undefined, name: string = LOCAL_PROFILE): Profile {
    const bootstrap = this.dataDir === undefined ? undefined : readBootstrap(this.dataDir);
    return localProfile(bootstrap, stored, name).profile;
  }

  private readFile(): { currentProfile?: string; profiles: Record<string, StoredProfile> } {
    const raw: unknown = this.conf.store;
    return parseConfigFile(raw, this.conf.path);
  }

  private writeFile(file: ConfigFile): void {
    // conf would create the dir with the umask's mode; a dir we create holds keys, so 0700.
    fs.mkdirSync(path.dirname(this.conf.path), { recursive: true, mode: 0o700 });
    const next: ConfigFile = { profiles: file.profiles ?? {} };
    if (file.currentProfile !== undefined) next.currentProfile = file.currentProfile;
    this.conf.store = next;
    // conf creates the file with configFileMode, but the umask narrows it and an existing file
    // keeps its old mode: enforce 0600 on every write (spec: "mode 0600").
    fs.chmodSync(this.conf.path, 0o600);
  }
}

export type OpenProfileStoreOptions = {
  /** `--config-dir` / `SVC_CONFIG_DIR`; default: the platform config dir (via `conf`). */
  configDir?: string;
  /** The local service's data dir, for the `local` profile's bootstrap.json. */
  dataDir?: string;
};

/**
 * Reads the profiles file without `conf` (conf costs ~70 ms to import): every command resolves its
 * settings through this; only commands that change profiles open the conf-backed ProfileStore.
 */
export function readProfilesFile(configDir: string): ProfileReader & { names(): string[] } {
  const file = path.join(configDir, CONFIG_FILE);
  let parsed: { currentProfile?: string; profiles: Record<string, StoredProfile> } | undefined;
  const load = () => {
    if (parsed) return parsed;
    let text: string | undefined;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    let raw: unknown = {};
    if (text !== undefined && text.trim() !== '') {
      try {
        raw = JSON.parse(text);
      } catch (error) {
        throw new Error(`malformed config file ${file}: ${(error as Error).message}`, { cause: error });
      }
    }
    return (parsed = parseConfigFile(raw, file));
  };
  return {
    current: () => load().currentProfile ?? LOCAL_PROFILE,
    /** Every profile name, `local` (always there) first. */
    names: () => [...BUILT_IN_PROFILES, ...Object.keys(load().profiles).filter((n) => !isBuiltInProfile(n))],
    getStored: (name: string) => {
      const profiles = load().profiles;
      return Object.hasOwn(profiles, name) ? { ...profiles[name] } : undefined;
    },
  };
}

/** Opens the profile store, loading `conf` only now (it is slow to import). */
export async function openProfileStore(options: OpenProfileStoreOptions = {}): Promise<ProfileStore> {
  const { default: ConfClass } = await import('conf');
  if (options.configDir !== undefined) fs.mkdirSync(options.configDir, { recursive: true, mode: 0o700 });
  const conf = new ConfClass<ConfigFile>({
    projectName: 'svc',
    // `~/.config/svc/config.json` rather than conf's default `svc-nodejs`.
    projectSuffix: '',
    configName: CONFIG_FILE.replace(/\.json$/, ''),
    ...(options.configDir !== undefined ? { cwd: options.configDir } : {}),
    configFileMode: 0o600,
    // Profile names may contain dots: never let conf read them as paths.
    accessPropertiesByDotNotation: false,
    // A hand-edited file with a typo must be reported, never silently wiped.
    clearInvalidConfig: false,
    // conf calls this as a method of itself, so `this.path` names the file in the error.
    deserialize(this: { path?: string } | undefined, text: string): ConfigFile {
      try {
        return JSON.parse(text) as ConfigFile;
      } catch (error) {
        const where = this?.path === undefined ? '' : ` ${this.path}`;
        throw new Error(`malformed config file${where}: ${(error as Error).message}`, { cause: error });
      }
    },
  });
  return new ProfileStore(conf, options.dataDir);
}

function parseConfigFile(
  raw: unknown,
  file: string,
): { currentProfile?: string; profiles: Record<string, StoredProfile> } {
  const fail = (why: string): never => {
    throw new Error(`malformed config file ${file}: ${why}`);
  };
  if (!isPlainObject(raw)) return fail('expected a JSON object');
  // Null prototype: a hand-written "__proto__" key stays a plain entry.
  const result: { currentProfile?: string; profiles: Record<string, StoredProfile> } = {
    profiles: Object.create(null) as Record<string, StoredProfile>,
  };
  if (raw.currentProfile !== undefined && raw.currentProfile !== null) {
    if (typeof raw.currentProfile !== 'string') fail('"currentProfile" must be a string');
    result.currentProfile = raw.currentProfile as string;
  }
  if (raw.profiles === undefined) return result;
  if (!isPlainObject(raw.profiles)) return fail('"profiles" must be an object');
  for (const [name, value] of Object.entries(raw.profiles)) {
    if (!isPlainObject(value)) fail(`profile "${name}" must be an object`);
    const profile: StoredProfile = {};
    for (const field of ['baseUrl', 'apiKey', 'subaccount'] as const) {
      const fieldValue = (value as Record<string, unknown>)[field];
      if (fieldValue === undefined || fieldValue === null) continue;
      if (typeof fieldValue !== 'string') fail(`profiles.${name}.${field} must be a string`);
      profile[field] = fieldValue as string;
    }
    result.profiles[name] = profile;
  }
  return result;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function withoutUndefined<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
