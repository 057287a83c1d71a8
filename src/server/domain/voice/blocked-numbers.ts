import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { BlockedNumberRecord, BlockedNumbersRepo } from '../../storage/blocked-numbers-repo.js';
import type { EventOutbox } from '../deps.js';
import type { Actor } from '../actor.js';
import { newUuid } from '../../ids.js';
import { conflict, notFound } from '../../errors.js';
import type { Page } from '../../../api/schemas/page.js';
import type { CreateBlockedNumberBody, UpdateBlockedNumberBody } from '../../../api/schemas/blocked-numbers.js';
import { BLOCK_SUGGESTION } from '../../../api/values/calls.js';
import { assertMayChange } from '../test-keys.js';

// spec: Blocked number; contract §6 (Blocked numbers, the auto-suggestion rule). One entry per
// account and number (UNIQUE in migration 6); `id` is a UUID and the owner is the acting account.
// contract §2: an entry keeps the mode of the key that added it (migration 17). Decision: a
// block protects live work (the calls to a live number), so a test key may not confirm, edit or remove
// one a live key added, nor a suggestion a live call counted toward; it may add blocks and change its own.

export interface BlockedNumbersDeps {
  uow: UnitOfWork;
  clock: Clock;
  blockedNumbers: BlockedNumbersRepo;
}

export async function listBlockedNumbers(
  deps: Pick<BlockedNumbersDeps, 'blockedNumbers'>,
  actor: Actor,
  q: { limit: number; cursor?: string; autoSuggested?: boolean },
): Promise<Page<BlockedNumberRecord>> {
  return await deps.blockedNumbers.list(actor.account.id, q);
}

/** Another account's entry is not_found, like a missing one. */
export async function getBlockedNumber(deps: Pick<BlockedNumbersDeps, 'blockedNumbers'>, actor: Actor, id: string): Promise<BlockedNumberRecord> {
  const entry = await deps.blockedNumbers.get(actor.account.id, id);
  if (!entry) throw notFound('blocked number');
  return entry;
}

/**
 * POST /v1/blocked-numbers. contract §6: `409` when the number is present, as a confirmed entry or as
 * the service's suggestion. A suggestion is confirmed with PATCH `autoSuggested: false` (contract §6);
 * the conflict's message says so and names the entry, so a client is one call from done.
 */
export async function blockNumber(deps: BlockedNumbersDeps, actor: Actor, body: CreateBlockedNumberBody): Promise<BlockedNumberRecord> {
  return await deps.uow.write(async (tx) => {
    const accountId = actor.account.id;
    const now = tx.clock.nowMs();
    const existing = await tx.blockedNumbers.findByNumber(accountId, body.phoneNumber);
    if (existing) throw alreadyPresent(body.phoneNumber, existing);
    const entry: BlockedNumberRecord = {
      id: newUuid(),
      accountId,
      phoneNumber: body.phoneNumber,
      reason: body.reason ?? null,
      autoSuggested: false,
      blockedCallCount: 0,
      lastBlockedAt: null,
      createdAt: now,
      updatedAt: now,
      mode: actor.mode,
    };
    // The UNIQUE index settles a race with another writer (a person or the suggestion outbox).
    if (!await tx.blockedNumbers.insertIfAbsent(entry)) {
      throw alreadyPresent(body.phoneNumber, await tx.blockedNumbers.findByNumber(accountId, body.phoneNumber));
    }
    return entry;
  });
}

function alreadyPresent(phoneNumber: string, existing: BlockedNumberRecord | undefined) {
  if (existing?.autoSuggested) {
    return conflict(`${phoneNumber} is already suggested for blocking (${existing.id}); confirm it with PATCH /v1/blocked-numbers/${existing.id} {"autoSuggested": false}`);
  }
  return conflict(`${phoneNumber} is already blocked${existing ? ` (${existing.id})` : ''}`);
}

/** PATCH: `reason` (null clears it) and `autoSuggested: false`, which confirms a suggestion (contract §6). */
export async function updateBlockedNumber(deps: BlockedNumbersDeps, actor: Actor, id: string, body: UpdateBlockedNumberBody): Promise<BlockedNumberRecord> {
  return await deps.uow.write(async (tx) => {
    const current = await getBlockedNumber(tx, actor, id);
    assertMayChange(actor, current.mode, `the block of ${current.phoneNumber}`);
    const next: BlockedNumberRecord = {
      ...current,
      reason: body.reason !== undefined ? body.reason : current.reason,
      autoSuggested: body.autoSuggested === false ? false : current.autoSuggested,
      updatedAt: tx.clock.nowMs(),
    };
    await tx.blockedNumbers.update(next);
    return next;
  });
}

/** DELETE: the number may call again (a later burst of short calls may suggest it anew). */
export async function unblockNumber(deps: BlockedNumbersDeps, actor: Actor, id: string): Promise<void> {
  await deps.uow.write(async (tx) => {
    const entry = await getBlockedNumber(tx, actor, id);
    assertMayChange(actor, entry.mode, `the block of ${entry.phoneNumber}`);
    await tx.blockedNumbers.delete(entry.id);
  });
}

// --- the auto-suggestion rule --------------------------------------------------------------------

/** The `reason` a suggestion carries, built from the rule's facts. */
export const SUGGESTION_REASON = `auto-suggested: ${BLOCK_SUGGESTION.calls} short or unanswered calls in ${BLOCK_SUGGESTION.windowSecs / 3600} hour`;

const ENDED_CALL_EVENTS = new Set(['call.missed', 'call.completed']);

/**
 * contract §6: "the service auto-suggests a caller after 5 inbound calls from it within one hour that
 * each ended unanswered or under 5 s". Checked when a call ends: on `call.missed` / `call.completed`
 * of an inbound call (spec: Event catalog — absent `direction` means inbound), counts that account's
 * inbound calls from the caller that started in the last hour (service clock) and ended `missed`, or
 * `completed` with `durationSeconds` under 5. At 5 or more, and with no entry for the number yet
 * (confirmed or suggested), adds an entry with `autoSuggested: true`, which the call engine does not
 * enforce until a person confirms it (spec: Blocked number). The entry is live when a call placed with a
 * live key is among those counted (contract §2: a test key may not lift what protects live calls).
 * Returns the new entry, or null.
 *
 * The call runner writes the call's row before emitting its end event in the same transaction, so the
 * ending call is counted; this runs inside that transaction (an outbox), so the suggestion commits
 * with the call.
 */
export async function suggestBlockAfterCall(
  deps: Pick<BlockedNumbersDeps, 'clock' | 'blockedNumbers'>,
  accountId: string,
  type: string,
  fields: Record<string, unknown>,
): Promise<BlockedNumberRecord | null> {
  if (!ENDED_CALL_EVENTS.has(type)) return null;
  const direction = fields.direction ?? 'inbound';
  const from = fields.from;
  if (direction !== 'inbound' || typeof from !== 'string') return null;
  if (await deps.blockedNumbers.findByNumber(accountId, from)) return null;
  const now = deps.clock.nowMs();
  const since = now - BLOCK_SUGGESTION.windowSecs * 1000;
  const counted = await deps.blockedNumbers.countShortOrUnansweredInbound(accountId, from, since, BLOCK_SUGGESTION.shortCallSecs);
  if (counted.n < BLOCK_SUGGESTION.calls) return null;
  const entry: BlockedNumberRecord = {
    id: newUuid(),
    accountId,
    phoneNumber: from,
    reason: SUGGESTION_REASON,
    autoSuggested: true,
    blockedCallCount: 0,
    lastBlockedAt: null,
    createdAt: now,
    updatedAt: now,
    mode: counted.live ? 'live' : 'test',
  };
  return await deps.blockedNumbers.insertIfAbsent(entry) ? entry : null;
}

/** The auto-suggestion rule as an event outbox (registered by the composition root): runs in the event's transaction. */
export function blockSuggestionOutbox(): EventOutbox {
  return async (event, tx) => void (await suggestBlockAfterCall(tx, event.accountId, event.type, event.body as Record<string, unknown>));
}
