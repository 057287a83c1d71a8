import { describe, expect, it } from 'vitest';
import { freshFixtureEachTest, serviceErrorOf, type DomainFixture } from '../../../../test/helpers/domain-fixture.js';
import type { AccountRecord } from '../../storage/accounts-repo.js';
import { newId } from '../../ids.js';
import { CreateBlockedNumberBody, UpdateBlockedNumberBody } from '../../../api/schemas/blocked-numbers.js';
import { BLOCK_SUGGESTION, type CallStatus } from '../../../api/values/calls.js';
import {
  SUGGESTION_REASON,
  blockNumber,
  getBlockedNumber,
  listBlockedNumbers,
  unblockNumber,
  updateBlockedNumber,
} from './blocked-numbers.js';

// The blocklist on an in-memory database (spec: Blocked number; contract §6): the caller's acts, and
// the auto-suggestion rule, driven the way the call runner drives it: a call's row written, then its
// end event emitted in the same transaction (the outbox registered by the composition root runs there).

let f: DomainFixture;
freshFixtureEachTest((fx) => (f = fx));

const CALLER = '+14155550142';
const MIN = 60_000;

const block = async (body: Record<string, unknown>, account: AccountRecord = f.agency) => (await f.deps.uow.write(async (tx) => await blockNumber(tx, f.actor('live', account), CreateBlockedNumberBody.parse(body))));
const entries = async (account: AccountRecord = f.agency) => (await f.deps.uow.read(async (tx) => await tx.blockedNumbers.list(account.id, { limit: 100 }))).data;

interface EndedCall {
  status: CallStatus;
  /** Seconds the call was answered for (completed calls). */
  durationSeconds?: number | null;
  direction?: 'inbound' | 'outbound';
  /** The event's `direction`: omitted, as older events do (absent means inbound). */
  eventDirection?: 'inbound' | 'outbound' | 'absent';
  from?: string;
  account?: AccountRecord;
}

/** A call that started now and ends now: its row, then its end event, in one transaction. */
async function endCall(c: EndedCall): Promise<void> {
  const account = c.account ?? f.agency;
  const from = c.from ?? CALLER;
  const direction = c.direction ?? 'inbound';
  const now = f.clock.nowMs();
  const id = newId('call');
  const answered = c.status === 'completed';
  const duration = answered ? (c.durationSeconds ?? 1) : null;
  await f.deps.uow.write(async (tx) => {
    f.db
      .prepare(
        `INSERT INTO calls (id, account_id, number_id, direction, from_number, to_number, status, started_at, answered_at, ended_at, duration_seconds, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(id, account.id, newId('num'), direction, from, '+14155550100', c.status, now, answered ? now : null, now, duration, now, now);
    // A blocked call ends without call.completed or call.missed: only its row is written.
    if (c.status === 'blocked') return;
    const type = c.status === 'completed' ? 'call.completed' : 'call.missed';
    const fields: Record<string, unknown> = { callId: id, from, to: '+14155550100', endedAt: new Date(now).toISOString() };
    if (c.eventDirection !== 'absent') fields.direction = c.eventDirection ?? direction;
    await tx.events.emit(account.id, type, fields);
  });
}

/** `n` calls one minute apart (the clock moves between them). */
async function calls(n: number, c: EndedCall): Promise<void> {
  for (let i = 0; i < n; i++) {
    if (i > 0) f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall(c);
  }
}

describe('blockNumber, list, get, update, unblock', () => {
  it('adds a confirmed entry owned by the acting account, and lists it', async () => {
    const entry = await block({ phoneNumber: CALLER, reason: 'spam' });
    expect(entry).toMatchObject({ accountId: f.agency.id, phoneNumber: CALLER, reason: 'spam', autoSuggested: false, blockedCallCount: 0, lastBlockedAt: null });
    expect(entry.id).toMatch(/^[0-9a-f-]{36}$/);
    const page = await f.deps.uow.write((tx) => listBlockedNumbers(tx, f.actor(), { limit: 10 }));
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.map((e) => e.id)).toEqual([entry.id]);
    expect(await f.deps.uow.write((tx) => getBlockedNumber(tx, f.actor(), entry.id))).toEqual(entry);
  });

  it('refuses a number already blocked with 409, changing nothing', async () => {
    const entry = await block({ phoneNumber: CALLER, reason: 'first' });
    const err = await serviceErrorOf(async () => await block({ phoneNumber: CALLER, reason: 'second' }));
    expect(err.code).toBe('conflict');
    expect(await entries()).toEqual([entry]);
  });

  it('a suggested number is present too: 409 naming the PATCH that confirms it, changing nothing', async () => {
    await calls(BLOCK_SUGGESTION.calls, { status: 'missed' });
    const [suggested] = await entries();
    expect(suggested).toMatchObject({ autoSuggested: true, reason: SUGGESTION_REASON });
    const err = await serviceErrorOf(async () => await block({ phoneNumber: CALLER, reason: 'by hand' }));
    expect(err.code).toBe('conflict');
    expect(err.message).toContain(`PATCH /v1/blocked-numbers/${suggested!.id}`);
    expect(await entries()).toEqual([suggested]);
  });

  it('PATCH changes the reason and confirms a suggestion; another account sees not_found', async () => {
    await calls(BLOCK_SUGGESTION.calls, { status: 'missed' });
    const [suggested] = await entries();
    const reason = (await f.deps.uow.write(async (tx) => await updateBlockedNumber(tx, f.actor(), suggested!.id, UpdateBlockedNumberBody.parse({ reason: 'noisy' }))));
    expect(reason).toMatchObject({ reason: 'noisy', autoSuggested: true });
    const confirmed = (await f.deps.uow.write(async (tx) => await updateBlockedNumber(tx, f.actor(), suggested!.id, UpdateBlockedNumberBody.parse({ autoSuggested: false, reason: null }))));
    expect(confirmed).toMatchObject({ reason: null, autoSuggested: false });
    expect(await f.deps.uow.write((tx) => getBlockedNumber(tx, f.actor(), suggested!.id))).toEqual(confirmed);
    const other = f.actor('live', f.stranger);
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => getBlockedNumber(tx, other, suggested!.id)))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await updateBlockedNumber(tx, other, suggested!.id, UpdateBlockedNumberBody.parse({ reason: 'x' })))))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await f.deps.uow.write(async (tx) => await unblockNumber(tx, other, suggested!.id))))).code).toBe('not_found');
    expect((await f.deps.uow.write((tx) => listBlockedNumbers(tx, other, { limit: 10 }))).data).toEqual([]);
  });

  it('filters by autoSuggested and unblocks', async () => {
    const mine = await block({ phoneNumber: '+14155550177' });
    await calls(BLOCK_SUGGESTION.calls, { status: 'missed' });
    const suggested = (await f.deps.uow.write((tx) => listBlockedNumbers(tx, f.actor(), { limit: 10, autoSuggested: true }))).data;
    expect(suggested.length).toBe(1);
    expect(suggested[0]!.phoneNumber).toBe(CALLER);
    expect((await f.deps.uow.write((tx) => listBlockedNumbers(tx, f.actor(), { limit: 10, autoSuggested: false }))).data.map((e) => e.id)).toEqual([mine.id]);
    (await f.deps.uow.write(async (tx) => await unblockNumber(tx, f.actor(), mine.id)));
    expect((await serviceErrorOf(async () => await f.deps.uow.write((tx) => getBlockedNumber(tx, f.actor(), mine.id)))).code).toBe('not_found');
    expect((await entries()).map((e) => e.phoneNumber)).toEqual([CALLER]);
  });
});

describe('the auto-suggestion rule (contract §6)', () => {
  it('suggests the caller on the 5th unanswered call within the hour, not before', async () => {
    await calls(BLOCK_SUGGESTION.calls - 1, { status: 'missed' });
    expect(await entries()).toEqual([]);
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'missed' });
    const list = await entries();
    expect(list.length).toBe(1);
    expect(list[0]).toMatchObject({ accountId: f.agency.id, phoneNumber: CALLER, autoSuggested: true, reason: SUGGESTION_REASON, blockedCallCount: 0, createdAt: f.clock.nowMs() });
  });

  it('counts short answered calls and events without a direction (inbound), mixed with missed ones', async () => {
    await calls(2, { status: 'completed', durationSeconds: BLOCK_SUGGESTION.shortCallSecs - 1, eventDirection: 'absent' });
    f.clock.setTo(f.clock.nowMs() + MIN);
    await calls(2, { status: 'missed' });
    expect(await entries()).toEqual([]);
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'completed', durationSeconds: 0, eventDirection: 'absent' });
    expect((await entries()).map((e) => [e.phoneNumber, e.autoSuggested])).toEqual([[CALLER, true]]);
  });

  it('a 5th call 61 minutes after the first suggests nothing (the first fell out of the hour)', async () => {
    await endCall({ status: 'missed' });
    f.clock.setTo(f.clock.nowMs() + 30 * MIN);
    await calls(3, { status: 'missed' });
    f.clock.setTo(f.clock.nowMs() + 29 * MIN); // 61 minutes after the first
    await endCall({ status: 'missed' });
    expect(await entries()).toEqual([]);
    // One more inside the hour of the second makes five again.
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'missed' });
    expect((await entries()).length).toBe(1);
  });

  it('an answered call of 5 s or more does not count', async () => {
    await calls(BLOCK_SUGGESTION.calls - 1, { status: 'missed' });
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'completed', durationSeconds: 6 });
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'completed', durationSeconds: BLOCK_SUGGESTION.shortCallSecs });
    expect(await entries()).toEqual([]);
  });

  it('a blocked call does not count', async () => {
    await calls(BLOCK_SUGGESTION.calls - 1, { status: 'missed' });
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'blocked' });
    f.clock.setTo(f.clock.nowMs() + MIN);
    // A completed long call ends: its event makes the rule count again, and still four count.
    await endCall({ status: 'completed', durationSeconds: 120 });
    expect(await entries()).toEqual([]);
  });

  it("counts per account: another account's calls from the same caller do not add up", async () => {
    await calls(3, { status: 'missed' });
    await calls(3, { status: 'missed', account: f.stranger });
    expect(await entries()).toEqual([]);
    expect(await entries(f.stranger)).toEqual([]);
    await calls(2, { status: 'missed', account: f.stranger });
    expect(await entries()).toEqual([]);
    expect((await entries(f.stranger)).map((e) => [e.accountId, e.phoneNumber])).toEqual([[f.stranger.id, CALLER]]);
  });

  it('counts per caller, and outbound calls never count', async () => {
    await calls(3, { status: 'missed' });
    await calls(3, { status: 'missed', from: '+14155550143' });
    await calls(3, { status: 'missed', direction: 'outbound' });
    expect(await entries()).toEqual([]);
  });

  it('does not duplicate an existing entry, confirmed or suggested, nor touch it', async () => {
    const entry = await block({ phoneNumber: CALLER, reason: 'mine' });
    await calls(BLOCK_SUGGESTION.calls + 2, { status: 'missed' });
    expect(await entries()).toEqual([entry]);
    (await f.deps.uow.write(async (tx) => await unblockNumber(tx, f.actor(), entry.id)));
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'missed' });
    const [suggested] = await entries();
    expect(suggested).toMatchObject({ autoSuggested: true });
    f.clock.setTo(f.clock.nowMs() + MIN);
    await endCall({ status: 'missed' });
    expect(await entries()).toEqual([suggested]);
  });

  it('other events are ignored, even with a caller in them', async () => {
    await calls(BLOCK_SUGGESTION.calls - 1, { status: 'missed' });
    await f.emit(f.agency, 'call.ringing', { callId: 'call_x', from: CALLER, to: '+14155550100', devices: [] });
    // The row of a fifth missed call, without its end event: the rule has not been asked yet.
    f.db
      .prepare(
        `INSERT INTO calls (id, account_id, number_id, direction, from_number, to_number, status, started_at, created_at, updated_at)
         VALUES (?, ?, 'num_x', 'inbound', ?, '+14155550100', 'missed', ?, ?, ?)`,
      )
      .run(newId('call'), f.agency.id, CALLER, f.clock.nowMs(), f.clock.nowMs(), f.clock.nowMs());
    expect(await entries()).toEqual([]);
    await f.emit(f.agency, 'call.missed', { callId: 'call_y', from: CALLER, to: '+14155550100', outcome: 'missed', direction: 'inbound' });
    expect((await entries()).length).toBe(1);
  });

  it('the suggestion commits with the event: rolled back together', async () => {
    await calls(BLOCK_SUGGESTION.calls - 1, { status: 'missed' });
    await expect(
      f.deps.uow.write(async (tx) => {
        f.db
          .prepare(
            `INSERT INTO calls (id, account_id, number_id, direction, from_number, to_number, status, started_at, created_at, updated_at)
             VALUES (?, ?, 'num_x', 'inbound', ?, '+14155550100', 'missed', ?, ?, ?)`,
          )
          .run(newId('call'), f.agency.id, CALLER, f.clock.nowMs(), f.clock.nowMs(), f.clock.nowMs());
        await tx.events.emit(f.agency.id, 'call.missed', { callId: 'call_z', from: CALLER, to: '+14155550100', direction: 'inbound' });
        // Read inside the transaction: a read from outside waits for its commit.
        expect((await tx.blockedNumbers.list(f.agency.id, { limit: 100 })).data).toHaveLength(1);
        throw new Error('the runner failed after emitting');
      }),
    ).rejects.toThrow('the runner failed');
    expect(await entries()).toEqual([]);
  });
});
