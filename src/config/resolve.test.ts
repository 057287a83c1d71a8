import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeBootstrap } from './bootstrap.js';
import { DEFAULT_BASE_URL, ProfileNotFoundError, type ProfileReader, type StoredProfile } from './profiles.js';
import { SettingsError, resolveSettings, type SettingsFlags } from './resolve.js';

/** An in-memory store: resolution needs only `current` and `getStored`. */
function memoryStore(profiles: Record<string, StoredProfile>, current?: string): ProfileReader {
  return {
    current: () => current ?? 'local',
    getStored: (name) => (Object.hasOwn(profiles, name) ? { ...profiles[name] } : undefined),
  };
}

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-resolve-'));
});
afterEach(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const profiles: Record<string, StoredProfile> = {
  prod: { baseUrl: 'https://prod.example.com', apiKey: 'sk_live_prod', subaccount: 'sub-prod' },
  staging: { baseUrl: 'https://staging.example.com', apiKey: 'sk_live_staging' },
  bare: {},
};

function resolve(flags: SettingsFlags = {}, env: Record<string, string | undefined> = {}, current?: string) {
  return resolveSettings({ flags, env, store: memoryStore(profiles, current), dataDir });
}

describe('profile name: flag > env > current > local', () => {
  it('uses each level only when the ones above are absent', () => {
    expect(resolve({ profile: 'prod' }, { SVC_PROFILE: 'staging' }, 'bare')).toMatchObject({
      profileName: 'prod',
      source: { profileName: 'flag' },
    });
    expect(resolve({}, { SVC_PROFILE: 'staging' }, 'bare')).toMatchObject({
      profileName: 'staging',
      source: { profileName: 'env' },
    });
    expect(resolve({}, {}, 'bare')).toMatchObject({ profileName: 'bare', source: { profileName: 'config' } });
    expect(resolve()).toMatchObject({ profileName: 'local', isLocal: true, source: { profileName: 'default' } });
  });

  it('treats an empty SVC_PROFILE as unset', () => {
    expect(resolve({}, { SVC_PROFILE: '' }, 'prod').profileName).toBe('prod');
  });

  it('fails on an unknown profile', () => {
    expect(() => resolve({ profile: 'nope' })).toThrow(ProfileNotFoundError);
    expect(() => resolve({}, { SVC_PROFILE: 'nope' })).toThrow(ProfileNotFoundError);
  });

  it('marks only the local profile as local', () => {
    expect(resolve({ profile: 'prod' }).isLocal).toBe(false);
    expect(resolve({ profile: 'local' }).isLocal).toBe(true);
  });
});

describe('api key: SVC_API_KEY > profile > none (no flag)', () => {
  it('takes the env over the profile', () => {
    expect(resolve({ profile: 'prod' }, { SVC_API_KEY: 'sk_live_env' })).toMatchObject({
      apiKey: 'sk_live_env',
      source: { apiKey: 'env' },
    });
    expect(resolve({ profile: 'prod' })).toMatchObject({ apiKey: 'sk_live_prod', source: { apiKey: 'profile' } });
    expect(resolve({ profile: 'bare' })).toMatchObject({ apiKey: undefined, source: { apiKey: 'none' } });
  });

  it('takes no key from a flag', () => {
    // SettingsFlags has no key field: a key on the command line leaks into the process list.
    const flags = { profile: 'bare', apiKey: 'sk_live_flag' } as SettingsFlags;
    expect(resolve(flags).apiKey).toBeUndefined();
  });
});

describe('base URL: flag > env > profile > default', () => {
  it('uses each level only when the ones above are absent', () => {
    const env = { SVC_BASE_URL: 'http://env.example.com' };
    expect(resolve({ profile: 'prod', baseUrl: 'http://flag.example.com' }, env)).toMatchObject({
      baseUrl: 'http://flag.example.com',
      source: { baseUrl: 'flag' },
    });
    expect(resolve({ profile: 'prod' }, env)).toMatchObject({
      baseUrl: 'http://env.example.com',
      source: { baseUrl: 'env' },
    });
    expect(resolve({ profile: 'prod' })).toMatchObject({
      baseUrl: 'https://prod.example.com',
      source: { baseUrl: 'profile' },
    });
    expect(resolve({ profile: 'bare' })).toMatchObject({ baseUrl: DEFAULT_BASE_URL, source: { baseUrl: 'default' } });
  });

  it('drops a trailing slash and rejects what is not an http(s) URL, naming the setting', () => {
    expect(resolve({ baseUrl: 'http://127.0.0.1:9/' }).baseUrl).toBe('http://127.0.0.1:9');
    expect(() => resolve({ baseUrl: 'not a url' })).toThrow(SettingsError);
    expect(() => resolve({}, { SVC_BASE_URL: 'ftp://x' })).toThrow(/SVC_BASE_URL/);
  });
});

describe('sub-account: flag > env > stored context > none', () => {
  it('uses each level only when the ones above are absent', () => {
    const env = { SVC_SUBACCOUNT: 'sub-env' };
    expect(resolve({ profile: 'prod', subaccount: 'sub-flag' }, env)).toMatchObject({
      subaccount: 'sub-flag',
      source: { subaccount: 'flag' },
    });
    expect(resolve({ profile: 'prod' }, env)).toMatchObject({ subaccount: 'sub-env', source: { subaccount: 'env' } });
    expect(resolve({ profile: 'prod' })).toMatchObject({ subaccount: 'sub-prod', source: { subaccount: 'profile' } });
    expect(resolve({ profile: 'staging' })).toMatchObject({ subaccount: undefined, source: { subaccount: 'none' } });
  });

  it('lets an explicit empty flag act as the account itself over the stored context', () => {
    expect(resolve({ profile: 'prod', subaccount: '' }, { SVC_SUBACCOUNT: 'sub-env' })).toMatchObject({
      subaccount: undefined,
      source: { subaccount: 'flag' },
    });
  });
});

describe('output: flag > env > unset', () => {
  it('uses each level only when the ones above are absent', () => {
    expect(resolve({ output: 'yaml' }, { SVC_OUTPUT: 'csv' })).toMatchObject({
      output: 'yaml',
      source: { output: 'flag' },
    });
    expect(resolve({}, { SVC_OUTPUT: 'csv' })).toMatchObject({ output: 'csv', source: { output: 'env' } });
    const none = resolve();
    expect(none.output).toBeUndefined();
    expect('output' in none).toBe(false);
    expect(none.source.output).toBe('none');
  });

  it('rejects an unknown format, naming where it came from', () => {
    expect(() => resolve({ output: 'xml' })).toThrow(/--output.*xml/);
    expect(() => resolve({}, { SVC_OUTPUT: 'xml' })).toThrow(/SVC_OUTPUT/);
    try {
      resolve({}, { SVC_OUTPUT: 'xml' });
    } catch (error) {
      expect((error as SettingsError).setting).toBe('SVC_OUTPUT');
    }
  });
});

describe('verbose: flag > SVC_DEBUG > off', () => {
  it('uses each level only when the ones above are absent', () => {
    expect(resolve({ verbose: false }, { SVC_DEBUG: '1' })).toMatchObject({
      verbose: false,
      source: { verbose: 'flag' },
    });
    expect(resolve({ verbose: true })).toMatchObject({ verbose: true, source: { verbose: 'flag' } });
    expect(resolve({}, { SVC_DEBUG: '1' })).toMatchObject({ verbose: true, source: { verbose: 'env' } });
    expect(resolve({}, { SVC_DEBUG: 'false' })).toMatchObject({ verbose: false, source: { verbose: 'env' } });
    expect(resolve()).toMatchObject({ verbose: false, source: { verbose: 'default' } });
  });
});

describe('the local profile', () => {
  it('reads bootstrap.json from the data dir', () => {
    writeBootstrap(dataDir, {
      accountId: 'acc_1',
      baseUrl: 'http://127.0.0.1:4555',
      liveKey: 'sk_live_boot',
      testKey: 'sk_test_boot',
    });
    expect(resolve()).toMatchObject({
      profileName: 'local',
      isLocal: true,
      baseUrl: 'http://127.0.0.1:4555',
      apiKey: 'sk_live_boot',
      source: { apiKey: 'bootstrap', baseUrl: 'bootstrap' },
    });
    // env still beats bootstrap.json
    expect(resolve({}, { SVC_API_KEY: 'sk_test_env', SVC_BASE_URL: 'http://127.0.0.1:1' })).toMatchObject({
      apiKey: 'sk_test_env',
      baseUrl: 'http://127.0.0.1:1',
      source: { apiKey: 'env', baseUrl: 'env' },
    });
  });

  it('has the default base URL and no key without bootstrap.json', () => {
    expect(resolve()).toMatchObject({
      baseUrl: DEFAULT_BASE_URL,
      apiKey: undefined,
      subaccount: undefined,
      source: { apiKey: 'none', baseUrl: 'default' },
    });
  });

  it('takes stored fields over bootstrap.json, e.g. a sub-account context', () => {
    writeBootstrap(dataDir, { accountId: 'a', baseUrl: 'http://127.0.0.1:4555', liveKey: 'sk_live_boot', testKey: 't' });
    const store = memoryStore({ local: { subaccount: 'sub-local', apiKey: 'sk_test_mine' } });
    expect(resolveSettings({ flags: {}, env: {}, store, dataDir })).toMatchObject({
      baseUrl: 'http://127.0.0.1:4555',
      apiKey: 'sk_test_mine',
      subaccount: 'sub-local',
      source: { apiKey: 'profile', baseUrl: 'bootstrap', subaccount: 'profile' },
    });
  });

  it('reports a malformed bootstrap.json with its path', () => {
    fs.writeFileSync(path.join(dataDir, 'bootstrap.json'), 'nope');
    expect(() => resolve()).toThrow(path.join(dataDir, 'bootstrap.json'));
  });
});
