// Test support for the voice tests (not itself a test file): numbers with routes, calls placed and
// walked through the sandbox, devices and blocklist entries written straight to storage (their API
// belongs to another branch of the work), and the account's call events.
import { expect } from 'vitest';
import type { TestService } from './helpers/service.js';
import { buy } from './messages-fixtures.js';
import { newId } from '../src/server/ids.js';

export const CALLER = '+14155550123';
export const PSTN = '+14155550199';

/** A voice number of the account with this route (PUT /v1/numbers/{id}/route). */
export async function voiceNumber(svc: TestService, route: Record<string, unknown> | null = { destinationType: 'pstn', destination: PSTN }): Promise<any> {
  const n = await buy(svc, { want: (c) => c.voice });
  if (route) {
    const res = await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: route });
    expect(res.status, res.text).toBe(200);
  }
  return n;
}

/** POST /v1/sandbox/calls; expects 201. */
export async function placeCall(svc: TestService, to: string, scenario: Record<string, unknown> = {}, opts: { from?: string; key?: string } = {}): Promise<any> {
  const res = await svc.call('POST', '/v1/sandbox/calls', { body: { from: opts.from ?? CALLER, to, scenario }, key: opts.key });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function getCall(svc: TestService, id: string): Promise<any> {
  const res = await svc.call('GET', `/v1/calls/${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export async function traceOf(svc: TestService, id: string): Promise<Array<{ at: string; step: string; detail: string }>> {
  const res = await svc.call('GET', `/v1/calls/${id}/trace`);
  expect(res.status, res.text).toBe(200);
  return res.body.data;
}

/** The account's stored events about this call (call.* and voicemail.received), oldest first. */
export async function callEvents(svc: TestService, callId: string, accountId = svc.bootstrap.accountId): Promise<Array<{ type: string; body: any }>> {
  const rows = (await svc.deps.uow.read(async (tx) => await tx.eventsRepo.feedPage(accountId, { order: 'asc', limit: 10_000, exact: [], prefixes: [] }))).rows;
  return rows.filter((e) => (e.body as any).callId === callId).map((e) => ({ type: e.type, body: e.body }));
}

/** A softphone device row with a fresh heartbeat (the devices API is not on this branch: straight to SQL). */
export async function seedDevice(svc: TestService, opts: { userId?: string; presence?: 'online' | 'offline'; lastSeenAt?: number | null } = {}): Promise<string> {
  const id = newId('dev');
  await svc.sql.run(
    'INSERT INTO devices (id, account_id, user_id, label, presence, last_seen_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    id, svc.bootstrap.accountId, opts.userId ?? 'user-1', `desk-${id.slice(-6)}`, opts.presence ?? 'online', opts.lastSeenAt === undefined ? svc.now() : opts.lastSeenAt, svc.now());
  return id;
}

/**
 * Makes the number's route ring these devices (webrtc destinations). PUT refuses webrtc destinations
 * until the devices API lands, so the stored route is rewritten through the repository.
 */
export async function ringDevices(svc: TestService, numberId: string, deviceIds: string[], ringTimeoutSecs = 25): Promise<void> {
  await svc.deps.uow.write(async (tx) => {
    const rec = (await tx.routes.get(numberId))!;
    const template = rec.route!.destinations[0]!;
    const destinations = deviceIds.map((d, i) => ({ ...template, id: newId('dst'), destinationType: 'webrtc' as const, destination: d, priority: i, ringTimeoutSecs }));
    await tx.routes.save({ ...rec, route: { ...rec.route!, destinations, destinationType: 'webrtc', destination: deviceIds[0]! }, version: rec.version + 1, updatedAt: svc.now() });
  });
}

/** A blocklist entry (the blocked-numbers API is not on this branch: straight to SQL). */
export async function seedBlock(svc: TestService, phoneNumber: string, autoSuggested = false): Promise<string> {
  const id = `blk_${newId('chg').slice(4)}`;
  const now = svc.now();
  await svc.sql.run(
    'INSERT INTO blocked_numbers (id, account_id, phone_number, reason, auto_suggested, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    id, svc.bootstrap.accountId, phoneNumber, 'spam', autoSuggested ? 1 : 0, now, now);
  return id;
}

export async function blockRow(svc: TestService, id: string): Promise<{ blocked_call_count: number; last_blocked_at: number | null }> {
  return (await svc.sql.get('SELECT blocked_call_count, last_blocked_at FROM blocked_numbers WHERE id = ?', id)) as any;
}
