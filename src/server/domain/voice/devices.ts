import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { DeviceRecord, DevicesRepo } from '../../storage/devices-repo.js';
import type { ServiceStateRepo } from '../../storage/service-state-repo.js';
import type { Actor } from '../actor.js';
import { newId } from '../../ids.js';
import { notFound } from '../../errors.js';
import type { Page } from '../../../api/schemas/page.js';
import type { RegisterDeviceBody } from '../../../api/schemas/softphone.js';
import { DEVICE_STALE_AFTER_SECS, DEVICE_TOKEN_TTL_SECS, type DevicePresence } from '../../../api/values/calls.js';
import { assertMayChange } from '../test-keys.js';

// spec: Softphone; contract §6 (Softphone): device registration (idempotent per user and label),
// login tokens, presence heartbeats and the 60 s staleness rule.

export interface DevicesDeps {
  uow: UnitOfWork;
  clock: Clock;
  devices: DevicesRepo;
  serviceState: ServiceStateRepo;
}

/**
 * POST /v1/webrtc/devices. contract §6: `201` with a new device, or `200` with the SAME device when
 * that user already has that label (`created: false`). The UNIQUE (account, user, label) index makes
 * two racing registrations end with one device.
 */
export async function registerDevice(deps: Pick<DevicesDeps, 'uow' | 'clock' | 'devices'>, actor: Actor, body: RegisterDeviceBody): Promise<{ device: DeviceRecord; created: boolean }> {
  return await deps.uow.write(async (tx) => await tx.devices.insertOrGet({
      id: newId('dev'),
      accountId: actor.account.id,
      userId: body.userId,
      label: body.label,
      // A device is offline until its first heartbeat (contract §6: online only while heartbeats arrive).
      presence: 'offline',
      lastSeenAt: null,
      mode: actor.mode,
      createdAt: tx.clock.nowMs(),
    }),
  );
}

export async function listDevices(deps: Pick<DevicesDeps, 'devices'>, actor: Actor, limit: number, cursor?: string): Promise<Page<DeviceRecord>> {
  return await deps.devices.list(actor.account.id, limit, cursor);
}

/** Another account's device is not_found, like a missing one. */
export async function getDevice(deps: Pick<DevicesDeps, 'devices'>, actor: Actor, id: string): Promise<DeviceRecord> {
  const device = await deps.devices.get(actor.account.id, id);
  if (!device) throw notFound('device');
  return device;
}

/**
 * A device about to be deleted, to report presence, or to get a token. contract §2: a device
 * registered with a live key rings on live calls; its token is a credential for them: a live key's.
 */
async function deviceToChange(deps: Pick<DevicesDeps, 'devices'>, actor: Actor, id: string): Promise<DeviceRecord> {
  const device = await getDevice(deps, actor, id);
  assertMayChange(actor, device.mode, 'this device');
  return device;
}

/**
 * DELETE /v1/webrtc/devices/{id}. Decision (the contract is silent): a device named by a call route
 * may be deleted. Refusing would let one lost laptop block every route edit; and a route whose webrtc
 * destination no longer exists does not break calls: the call engine skips an unknown device like a
 * stale one (trace `leg.skipped`, "no such device") and rings the rest. The route keeps the
 * destination until it is next saved, when the route check refuses it (contract §5).
 */
export async function deleteDevice(deps: Pick<DevicesDeps, 'uow' | 'devices'>, actor: Actor, id: string): Promise<void> {
  await deps.uow.write(async (tx) => {
    const device = await deviceToChange(tx, actor, id);
    await tx.devices.delete(device.id);
  });
}

/** POST /v1/webrtc/devices/{id}/presence: a heartbeat; `lastSeenAt` is the service clock now, whatever the status. */
export async function recordHeartbeat(deps: Pick<DevicesDeps, 'uow' | 'clock' | 'devices'>, actor: Actor, id: string, status: DevicePresence): Promise<DeviceRecord> {
  return await deps.uow.write(async (tx) => {
    const device = await deviceToChange(tx, actor, id);
    const now = tx.clock.nowMs();
    await tx.devices.recordPresence(device.id, status, now);
    return { ...device, presence: status, lastSeenAt: now };
  });
}

/**
 * contract §6: "stale after 60 s without a heartbeat" — a device reads `online` only when its last
 * heartbeat said online and came at most 60 s ago (service clock), the rule the call engine applies
 * to ring waves.
 */
export function effectivePresence(device: Pick<DeviceRecord, 'presence' | 'lastSeenAt'>, nowMs: number): DevicePresence {
  if (device.presence !== 'online' || device.lastSeenAt === null) return 'offline';
  return nowMs - device.lastSeenAt > DEVICE_STALE_AFTER_SECS * 1000 ? 'offline' : 'online';
}

// --- login tokens ----------------------------------------------------------------------------------

/** Where the per-service token secret is kept (service_state): generated once, so a restart keeps tokens valid. */
export const DEVICE_TOKEN_SECRET_KEY = 'device-token-secret';
const TOKEN_PREFIX = 'dtk';

/** What a valid token carries. */
export interface DeviceTokenClaims {
  deviceId: string;
  accountId: string;
  /** Wall-clock ms. */
  expiresAt: number;
}

/** The service's token secret, generated (32 random bytes) and persisted the first time it is needed. */
async function tokenSecret(deps: Pick<DevicesDeps, 'uow' | 'serviceState'>): Promise<Buffer> {
  return await deps.uow.write(async (tx) => {
    let hex = await tx.serviceState.get<string>(DEVICE_TOKEN_SECRET_KEY);
    if (hex === undefined) {
      hex = randomBytes(32).toString('hex');
      await tx.serviceState.set(DEVICE_TOKEN_SECRET_KEY, hex);
    }
    return Buffer.from(hex, 'hex');
  });
}

const sign = (secret: Buffer, payload: string): Buffer => createHmac('sha256', secret).update(payload).digest();

/**
 * POST /v1/webrtc/devices/{id}/token. contract §6: a short-lived login token, valid for 10 minutes of
 * WALL-CLOCK time (like webhook signatures: never the service's advanced clock), signed with
 * HMAC-SHA256 under the per-service secret, carrying the device, the account and the expiry:
 * `dtk.<base64url JSON {d, a, e}>.<base64url HMAC of the middle part>`. Never logged.
 */
export async function mintDeviceToken(
  deps: Pick<DevicesDeps, 'uow' | 'devices' | 'serviceState'>,
  actor: Actor,
  id: string,
  wallNowMs: number = Date.now(),
): Promise<{ token: string; expiresAt: number }> {
  const device = await deviceToChange(deps, actor, id);
  const expiresAt = wallNowMs + DEVICE_TOKEN_TTL_SECS * 1000;
  const payload = Buffer.from(JSON.stringify({ d: device.id, a: device.accountId, e: expiresAt }), 'utf8').toString('base64url');
  const mac = sign(await tokenSecret(deps), payload).toString('base64url');
  return { token: `${TOKEN_PREFIX}.${payload}.${mac}`, expiresAt };
}

/**
 * Checks a device token: the signature under this service's secret (a token of another service, or
 * one changed in any byte, fails), then the expiry against the wall clock. The claims, or null.
 */
export async function verifyDeviceToken(
  deps: Pick<DevicesDeps, 'uow' | 'serviceState'>,
  token: string,
  wallNowMs: number = Date.now(),
): Promise<DeviceTokenClaims | null> {
  const parts = token.split('.');
  if (parts.length !== 3 || parts[0] !== TOKEN_PREFIX) return null;
  const [, payload, mac] = parts as [string, string, string];
  const expected = sign(await tokenSecret(deps), payload);
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  const c = claims as { d?: unknown; a?: unknown; e?: unknown };
  if (typeof c.d !== 'string' || typeof c.a !== 'string' || typeof c.e !== 'number') return null;
  if (wallNowMs >= c.e) return null;
  return { deviceId: c.d, accountId: c.a, expiresAt: c.e };
}
