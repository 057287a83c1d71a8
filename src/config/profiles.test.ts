import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeBootstrap } from './bootstrap.js';
import { DEFAULT_BASE_URL, ProfileNotFoundError, openProfileStore, type ProfileStore } from './profiles.js';

let tmp: string;
let configDir: string;
let dataDir: string;
let store: ProfileStore;

const configFile = () => path.join(configDir, 'config.json');
const readConfig = () => JSON.parse(fs.readFileSync(configFile(), 'utf8')) as unknown;

beforeEach(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-profiles-'));
  configDir = path.join(tmp, 'config');
  dataDir = path.join(tmp, 'data');
  store = await openProfileStore({ configDir, dataDir });
});
afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('the built-in local profile', () => {
  it('exists with the default base URL and no key when nothing is stored and there is no bootstrap.json', () => {
    expect(store.get('local')).toEqual({ name: 'local', baseUrl: DEFAULT_BASE_URL, builtIn: true });
    expect(store.list().map((p) => p.name)).toEqual(['local', 'local-test']);
    expect(store.current()).toBe('local');
    // Reading never creates the file.
    expect(fs.existsSync(configFile())).toBe(false);
  });

  it('local-test is the same service with the test key', () => {
    writeBootstrap(dataDir, { accountId: 'acc_1', baseUrl: 'http://127.0.0.1:5555', liveKey: 'sk_live_local', testKey: 'sk_test_local' });
    expect(store.get('local-test')).toEqual({ name: 'local-test', baseUrl: 'http://127.0.0.1:5555', apiKey: 'sk_test_local', builtIn: true });
    expect(store.get('local')?.apiKey).toBe('sk_live_local');
  });

  it("reads bootstrap.json's baseUrl and live key", () => {
    writeBootstrap(dataDir, {
      accountId: 'acc_1',
      baseUrl: 'http://127.0.0.1:5555',
      liveKey: 'sk_live_local',
      testKey: 'sk_test_local',
    });
    expect(store.get('local')).toEqual({
      name: 'local',
      baseUrl: 'http://127.0.0.1:5555',
      apiKey: 'sk_live_local',
      builtIn: true,
    });
  });

  it('lets a stored local entry override fields', () => {
    writeBootstrap(dataDir, { accountId: 'a', baseUrl: 'http://127.0.0.1:5555', liveKey: 'sk_live_x', testKey: 't' });
    store.set('local', { baseUrl: 'http://127.0.0.1:6000' });
    store.setSubaccount('local', 'sub-1');
    expect(store.get('local')).toEqual({
      name: 'local',
      baseUrl: 'http://127.0.0.1:6000',
      apiKey: 'sk_live_x',
      subaccount: 'sub-1',
      builtIn: true,
    });
    expect(store.list().filter((p) => p.name === 'local')).toHaveLength(1);
  });

  it('can always be used, and removing it only drops its stored fields', () => {
    store.set('local', { subaccount: 'sub-1' });
    store.use('local');
    expect(store.current()).toBe('local');
    store.remove('local');
    expect(store.get('local')).toEqual({ name: 'local', baseUrl: DEFAULT_BASE_URL, builtIn: true });
    expect(() => store.remove('local')).not.toThrow();
  });
});

describe('stored profiles', () => {
  it('stores exactly { currentProfile, profiles: { NAME: { baseUrl, apiKey, subaccount } } }', () => {
    store.set('prod', { baseUrl: 'https://api.example.com', apiKey: 'sk_live_prod' });
    store.set('prod', { subaccount: 'sub-9' }); // merge, not replace
    store.use('prod');
    expect(readConfig()).toEqual({
      currentProfile: 'prod',
      profiles: { prod: { baseUrl: 'https://api.example.com', apiKey: 'sk_live_prod', subaccount: 'sub-9' } },
    });
    expect(store.get('prod')).toEqual({
      name: 'prod',
      baseUrl: 'https://api.example.com',
      apiKey: 'sk_live_prod',
      subaccount: 'sub-9',
      builtIn: false,
    });
    expect(store.current()).toBe('prod');
  });

  it('writes the config file with mode 0600, also over a file that had a wider mode', async () => {
    store.set('prod', { apiKey: 'sk_live_prod' });
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(configDir).mode & 0o777).toBe(0o700);

    fs.chmodSync(configFile(), 0o644);
    const reopened = await openProfileStore({ configDir, dataDir });
    reopened.set('prod', { baseUrl: 'https://api.example.com' });
    expect(fs.statSync(configFile()).mode & 0o777).toBe(0o600);
  });

  it('lists local first, then the others by name', () => {
    store.set('zeta', { apiKey: 'k1' });
    store.set('alpha', { apiKey: 'k2' });
    expect(store.list().map((p) => p.name)).toEqual(['local', 'local-test', 'alpha', 'zeta']);
    expect(store.get('alpha')?.baseUrl).toBe(DEFAULT_BASE_URL);
  });

  it('keeps a dotted name as one key', () => {
    store.set('staging.eu', { apiKey: 'k' });
    expect(readConfig()).toEqual({ profiles: { 'staging.eu': { apiKey: 'k' } } });
    expect(store.get('staging.eu')?.apiKey).toBe('k');
  });

  it('clears a field with null', () => {
    store.set('prod', { apiKey: 'k', baseUrl: 'https://api.example.com' });
    store.set('prod', { baseUrl: null });
    expect(store.getStored('prod')).toEqual({ apiKey: 'k' });
  });

  it('rejects unusable names', () => {
    expect(() => store.set('__proto__', { apiKey: 'k' })).toThrow(/invalid profile name/);
    expect(() => store.set('a b', { apiKey: 'k' })).toThrow(/invalid profile name/);
    expect(store.get('constructor')).toBeUndefined();
    expect(store.get('toString')).toBeUndefined();
  });

  it('refuses to use or remove an unknown profile', () => {
    expect(() => store.use('nope')).toThrow(ProfileNotFoundError);
    expect(() => store.remove('nope')).toThrow(ProfileNotFoundError);
    expect(() => store.setSubaccount('nope', 'sub-1')).toThrow(ProfileNotFoundError);
    expect(store.get('nope')).toBeUndefined();
    expect(store.current()).toBe('local');
  });

  it('falls back to local when the current profile is removed', () => {
    store.set('prod', { apiKey: 'k' });
    store.use('prod');
    store.remove('prod');
    expect(store.get('prod')).toBeUndefined();
    expect(store.current()).toBe('local');
    expect(readConfig()).toEqual({ profiles: {} });
  });

  it('stores and clears the sub-account context', () => {
    store.set('prod', { apiKey: 'k' });
    store.setSubaccount('prod', 'sub-1');
    expect(store.get('prod')?.subaccount).toBe('sub-1');
    expect(readConfig()).toEqual({ profiles: { prod: { apiKey: 'k', subaccount: 'sub-1' } } });
    store.setSubaccount('prod', null);
    expect(store.get('prod')?.subaccount).toBeUndefined();
    expect(readConfig()).toEqual({ profiles: { prod: { apiKey: 'k' } } });
  });

  it('persists across stores opened on the same dir', async () => {
    store.set('prod', { apiKey: 'k' });
    store.use('prod');
    const again = await openProfileStore({ configDir, dataDir });
    expect(again.current()).toBe('prod');
    expect(again.get('prod')?.apiKey).toBe('k');
  });
});

describe('a damaged config file', () => {
  it('is reported with its path, never wiped', async () => {
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(configFile(), '{ "profiles": ');
    await expect(openProfileStore({ configDir, dataDir })).rejects.toThrow(configFile());
    expect(fs.readFileSync(configFile(), 'utf8')).toBe('{ "profiles": ');
  });

  it('reports a wrong shape with its path', async () => {
    fs.mkdirSync(configDir, { recursive: true });
    fs.writeFileSync(configFile(), JSON.stringify({ profiles: { prod: { apiKey: 7 } } }));
    const damaged = await openProfileStore({ configDir, dataDir });
    expect(() => damaged.get('prod')).toThrow(configFile());
  });
});

describe('startup cost', () => {
  it('never imports conf at module top level (svc --help must not load it)', () => {
    const dir = path.dirname(new URL(import.meta.url).pathname);
    for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
      const source = fs.readFileSync(path.join(dir, file), 'utf8');
      expect(source, file).not.toMatch(/^import\s+(?!type\s)[^;]*from\s+['"]conf['"]/m);
      expect(source, file).not.toMatch(/^import\s+['"]conf['"]/m);
    }
  });
});
