// A refusal the key's mode caused names where the key came from and the way out.
import { describe, expect, it } from 'vitest';
import { keyOriginHint, modeAskedBy, refusalOriginHint, type KeyOrigin } from './key-mode-hint.js';

const TEST_KEY = 'sk_test_0123456789abcdef0123456789abcdef';
const LIVE_KEY = 'sk_live_0123456789abcdef0123456789abcdef';

const origin = (o: Partial<KeyOrigin> & { profileSource?: KeyOrigin['source']['profileName']; keySource?: KeyOrigin['source']['apiKey'] }): KeyOrigin => ({
  profileName: o.profileName ?? 'local-test',
  configuredProfile: o.configuredProfile ?? 'local',
  apiKey: 'apiKey' in o ? o.apiKey : TEST_KEY,
  source: { profileName: o.profileSource ?? 'env', apiKey: o.keySource ?? 'bootstrap' },
});

const testKeyRefusal = { code: 'forbidden', details: [{ path: ['headers', 'authorization'], message: 'a test key' }] };
const campaignRefusal = { code: 'conflict', details: [{ path: ['body', 'from'], message: 'assign an approved 10DLC campaign' }] };

describe('modeAskedBy', () => {
  it('reads the mode a refusal asks for from its code and the field it names, nothing else', () => {
    expect(modeAskedBy(testKeyRefusal)).toBe('live');
    expect(modeAskedBy(campaignRefusal)).toBe('test');
    // Other 403s (a suspended account, a sub-account header) are not the key's mode.
    expect(modeAskedBy({ code: 'forbidden' })).toBeUndefined();
    expect(modeAskedBy({ code: 'forbidden', details: [{ path: ['headers', 'service-subaccount'], message: 'x' }] })).toBeUndefined();
    expect(modeAskedBy({ code: 'conflict', details: [{ path: ['body', 'phoneNumber'], message: 'x' }] })).toBeUndefined();
    expect(modeAskedBy({ code: 'validation_error', details: [{ path: ['headers', 'authorization'], message: 'x' }] })).toBeUndefined();
  });
});

describe('keyOriginHint', () => {
  it('names the profile, who chose it and the fix', () => {
    expect(keyOriginHint(origin({}), 'live')).toBe('the active profile is local-test (from SVC_PROFILE), a test key: run with --profile local or unset SVC_PROFILE');
    expect(keyOriginHint(origin({ profileSource: 'flag' }), 'live')).toBe('the active profile is local-test (from --profile), a test key: run with --profile local');
    expect(keyOriginHint(origin({ profileSource: 'config', configuredProfile: 'local-test' }), 'live')).toBe(
      'the active profile is local-test (chosen with `svc profiles use`), a test key: run with --profile local or `svc profiles use local`',
    );
    expect(keyOriginHint(origin({ profileName: 'local', apiKey: LIVE_KEY }), 'test')).toBe('the active profile is local (from SVC_PROFILE), a live key: run with --profile local-test');
  });

  it('offers unsetting SVC_PROFILE only when that gives the profile needed', () => {
    expect(keyOriginHint(origin({ configuredProfile: 'local-test' }), 'live')).toBe('the active profile is local-test (from SVC_PROFILE), a test key: run with --profile local');
  });

  it('a profile of your own: no built-in to name, so a profile with the other key', () => {
    expect(keyOriginHint(origin({ profileName: 'staging' }), 'live')).toBe('the active profile is staging (from SVC_PROFILE), a test key: use a profile with a live key (svc profiles list)');
  });

  it('a key from SVC_API_KEY says so, whatever the profile', () => {
    expect(keyOriginHint(origin({ keySource: 'env' }), 'live')).toBe("the key is SVC_API_KEY's, a test key: set SVC_API_KEY to a live key, or unset it to use the profile's");
  });

  it('says nothing when the key already has the mode asked for, or there is none', () => {
    expect(keyOriginHint(origin({ apiKey: LIVE_KEY }), 'live')).toBeUndefined();
    expect(keyOriginHint(origin({ apiKey: undefined }), 'live')).toBeUndefined();
  });
});

describe('refusalOriginHint', () => {
  it('speaks for a key the user chose; the default profile’s refusals carry their own hint', () => {
    expect(refusalOriginHint(testKeyRefusal, origin({}))).toContain('the active profile is local-test (from SVC_PROFILE)');
    expect(refusalOriginHint(campaignRefusal, origin({ profileName: 'local', apiKey: LIVE_KEY, profileSource: 'default' }))).toBeUndefined();
    expect(refusalOriginHint(testKeyRefusal, origin({ profileSource: 'default', keySource: 'env' }))).toContain("SVC_API_KEY's");
    expect(refusalOriginHint({ code: 'forbidden' }, origin({}))).toBeUndefined();
    expect(refusalOriginHint(testKeyRefusal, undefined)).toBeUndefined();
  });
});
