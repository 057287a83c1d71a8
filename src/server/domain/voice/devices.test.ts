import { describe, expect, it } from 'vitest';
import { createDomainFixture, freshFixtureEachTest, serviceErrorOf, type DomainFixture } from '../../../../test/helpers/domain-fixture.js';
import { RegisterDeviceBody } from '../../../api/schemas/softphone.js';
import { DEVICE_STALE_AFTER_SECS, DEVICE_TOKEN_TTL_SECS } from '../../../api/values/calls.js';
import {
  DEVICE_TOKEN_SECRET_KEY,
  deleteDevice,
  effectivePresence,
  getDevice,
  listDevices,
  mintDeviceToken,
  recordHeartbeat,
  registerDevice,
  verifyDeviceToken,
} from './devices.js';

// Softphone devices on an in-memory database (contract §6: Softphone): idempotent registration,
// presence and its staleness, signed login tokens on the wall clock.

let f: DomainFixture;
freshFixtureEachTest((fx) => (f = fx));

const register = async (body: Record<string, unknown>, actor = f.actor()) => (await f.deps.uow.write(async (tx) => await registerDevice(tx, actor, RegisterDeviceBody.parse(body))));
const WALL = Date.UTC(2026, 5, 1, 9, 0, 0);

describe('registerDevice', () => {
  it('creates a device once per user and label and returns the same device after', async () => {
    const first = await register({ userId: 'u1', label: 'laptop' });
    expect(first.created).toBe(true);
    expect(first.device).toMatchObject({ accountId: f.agency.id, userId: 'u1', label: 'laptop', presence: 'offline', lastSeenAt: null, createdAt: f.clock.nowMs() });
    expect(first.device.id).toMatch(/^dev_/);
    f.clock.setTo(f.clock.nowMs() + 1000);
    const again = await register({ userId: 'u1', label: 'laptop' });
    expect(again).toEqual({ device: first.device, created: false });
    // Another user with the same label, or the same user with another label: new devices.
    expect((await register({ userId: 'u2', label: 'laptop' })).created).toBe(true);
    expect((await register({ userId: 'u1', label: 'phone' })).created).toBe(true);
    // Another account with the same user and label: its own device.
    const theirs = await register({ userId: 'u1', label: 'laptop' }, f.actor('live', f.stranger));
    expect(theirs.created).toBe(true);
    expect(theirs.device.id).not.toBe(first.device.id);
    const mine = (await f.deps.uow.write((tx) => listDevices(tx, f.actor(), 10))).data;
    expect(mine.length).toBe(3);
    expect(mine.map((d) => d.label)).toEqual(['phone', 'laptop', 'laptop']);
  });
});

describe('getDevice, deleteDevice', () => {
  it("another account's device is not_found; a deleted device is gone", async () => {
    const { device } = await register({ userId: 'u1', label: 'laptop' });
    const other = f.actor('live', f.stranger);
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => getDevice(tx, other, device.id)))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await deleteDevice(tx, other, device.id))))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await recordHeartbeat(tx, other, device.id, 'online'))))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => mintDeviceToken(tx, other, device.id, WALL)))).code).toBe('not_found');
    (await f.deps.uow.write(async (tx) => await deleteDevice(tx, f.actor(), device.id)));
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => getDevice(tx, f.actor(), device.id)))).code).toBe('not_found');
    expect((await f.deps.uow.write((tx) => listDevices(tx, f.actor(), 10))).data).toEqual([]);
    // Registering the label again makes a new device.
    expect((await register({ userId: 'u1', label: 'laptop' })).device.id).not.toBe(device.id);
  });
});

describe('presence', () => {
  it('every heartbeat sets lastSeenAt to the service clock; online goes stale after 60 s', async () => {
    const { device } = await register({ userId: 'u1', label: 'laptop' });
    expect(effectivePresence(device, f.clock.nowMs())).toBe('offline');
    const beat = (await f.deps.uow.write(async (tx) => await recordHeartbeat(tx, f.actor(), device.id, 'online')));
    expect(beat).toMatchObject({ presence: 'online', lastSeenAt: f.clock.nowMs() });
    expect(await f.deps.uow.write((tx) => getDevice(tx, f.actor(), device.id))).toEqual(beat);
    expect(effectivePresence(beat, f.clock.nowMs() + DEVICE_STALE_AFTER_SECS * 1000)).toBe('online');
    expect(effectivePresence(beat, f.clock.nowMs() + DEVICE_STALE_AFTER_SECS * 1000 + 1)).toBe('offline');
    f.clock.setTo(f.clock.nowMs() + 20_000);
    const off = (await f.deps.uow.write(async (tx) => await recordHeartbeat(tx, f.actor(), device.id, 'offline')));
    expect(off).toMatchObject({ presence: 'offline', lastSeenAt: f.clock.nowMs() });
    expect(effectivePresence(off, f.clock.nowMs())).toBe('offline');
  });
});

describe('device tokens', () => {
  it('a fresh token verifies and carries the device, the account and the expiry (wall clock)', async () => {
    const { device } = await register({ userId: 'u1', label: 'laptop' });
    const { token, expiresAt } = await f.deps.uow.write((tx) => mintDeviceToken(tx, f.actor(), device.id, WALL));
    expect(expiresAt).toBe(WALL + DEVICE_TOKEN_TTL_SECS * 1000);
    expect(token).not.toContain(device.id); // opaque: base64url parts, no raw ids
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, WALL + 1000)))).toEqual({ deviceId: device.id, accountId: f.agency.id, expiresAt });
    // The service clock does not matter: advancing it a day leaves the token valid.
    f.clock.setTo(f.clock.nowMs() + 86_400_000);
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, WALL + 1000)))).not.toBeNull();
  });

  it('expires after 10 minutes of wall-clock time', async () => {
    const { device } = await register({ userId: 'u1', label: 'laptop' });
    const { token } = await f.deps.uow.write((tx) => mintDeviceToken(tx, f.actor(), device.id, WALL));
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, WALL + DEVICE_TOKEN_TTL_SECS * 1000 - 1)))).not.toBeNull();
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, WALL + DEVICE_TOKEN_TTL_SECS * 1000)))).toBeNull();
  });

  it('a tampered token fails: a changed claim, a changed signature, a malformed one', async () => {
    const { device } = await register({ userId: 'u1', label: 'laptop' });
    const { token } = await f.deps.uow.write((tx) => mintDeviceToken(tx, f.actor(), device.id, WALL));
    const [prefix, payload, mac] = token.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    const longer = Buffer.from(JSON.stringify({ ...claims, e: claims.e + 3600_000 })).toString('base64url');
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, `${prefix}.${longer}.${mac}`, WALL)))).toBeNull();
    const flipped = mac.slice(0, -2) + (mac.endsWith('AA') ? 'BB' : 'AA');
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, `${prefix}.${payload}.${flipped}`, WALL)))).toBeNull();
    for (const bad of ['', 'dtk', `${prefix}.${payload}`, `xyz.${payload}.${mac}`, `${token}.x`]) expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, bad, WALL)))).toBeNull();
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, WALL)))).not.toBeNull();
  });

  it("another service's token fails (each service has its own secret), and the secret is kept", async () => {
    const { device } = await register({ userId: 'u1', label: 'laptop' });
    const { token } = await f.deps.uow.write((tx) => mintDeviceToken(tx, f.actor(), device.id, WALL));
    const secret = await f.deps.uow.read((tx) => tx.serviceState.get<string>(DEVICE_TOKEN_SECRET_KEY));
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const other = await createDomainFixture();
    try {
      expect((await other.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, WALL)))).toBeNull();
      const theirs = (await other.deps.uow.write(async (tx) => await registerDevice(tx, other.actor(), RegisterDeviceBody.parse({ userId: 'u1', label: 'laptop' }))));
      const foreign = (await other.deps.uow.write((tx) => mintDeviceToken(tx, other.actor(), theirs.device.id, WALL))).token;
      expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, foreign, WALL)))).toBeNull();
      expect((await other.deps.uow.write(async (tx) => await verifyDeviceToken(tx, foreign, WALL)))).not.toBeNull();
    } finally {
      await other.close();
    }
    // Minting again reuses the stored secret, so earlier tokens stay valid.
    await f.deps.uow.write((tx) => mintDeviceToken(tx, f.actor(), device.id, WALL));
    expect(await f.deps.uow.read((tx) => tx.serviceState.get<string>(DEVICE_TOKEN_SECRET_KEY))).toBe(secret);
    expect((await f.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, WALL)))).not.toBeNull();
  });
});
