import type { Sql } from './sql.js';
import type { Statements } from '../shared/statements.js';
import { EVENTS_CHANNEL } from './channels.js';

/** The advisory-lock namespace of the per-account feeds (events, mail sandbox): any int4 of our own. */
const FEED_LOCK = 0x73766302;
/** The namespace `svc_sequence_feed` locks an account's events feed in (migration 5 writes it out: 1937138435). */
export const EVENTS_FEED_LOCK = 0x73766303;

/**
 * Mail sandbox: readers page it by `seq` ("after position N"), so a position must never become
 * visible after a higher one of the same account: a follower that has read N+1 would never look back
 * for N. Identity values are handed out at insert, not at commit, so two concurrent writes could
 * commit their rows out of order. Taking this per-account lock before the insert, held to the end of
 * the transaction, makes one account's rows commit in the order of their positions. The mail sandbox
 * is written rarely, so holding the lock through COMMIT costs nothing there; the events feed, written
 * by every send, is sequenced after commit instead (`sequenceFeed`).
 */
export async function lockAccountFeed(db: Statements, accountId: string): Promise<void> {
  await db.prepare('SELECT pg_advisory_xact_lock(?, hashtext(?))').get(FEED_LOCK, accountId);
}

/**
 * The events feed's positions, given after commit (bench/messages: a send at half its floor, not a tenth).
 *
 * The same rule as the mail sandbox holds (no position may become visible after a higher one of the
 * same account), but holding an account's lock from the event insert through COMMIT and its fsync
 * made one account's sends commit one at a time (×0.10 of the floor). So an event is inserted with
 * no position (`pos` NULL: not in the feed yet) and no lock, commits with its change, and is then
 * given its position by `svc_sequence_feed` (the function migration 5 defines), its own short
 * transaction: under the account's lock it numbers, in insertion order, every committed event of the account still without one, and notifies
 * the other replicas (delivered at its COMMIT). The lock is taken before the numbering statement's
 * snapshot (each statement of a VOLATILE PL/pgSQL function sees what committed before it began), so
 * numbers drawn under the lock are visible before any number drawn after it: positions become
 * visible in order. Sends that committed together wait on the lock together, and the first to get
 * it numbers them all (one COMMIT, one fsync for the batch); the others find nothing to do.
 *
 * A process that dies between its COMMIT and the numbering leaves events without a position: every
 * replica numbers such stragglers on its heartbeat (`sequenceStragglers`), so they join the feed
 * within seconds. Their notification then names no sender, so the sweeping process hears it too.
 *
 * Call it outside any transaction (it is one): `sender` names this replica in the notifications.
 */
export async function sequenceFeed(db: Sql, accountId: string, sender: string): Promise<number> {
  const row = (await db.prepare('SELECT svc_sequence_feed(?, ?, ?) AS n').get(accountId, EVENTS_CHANNEL, sender)) as { n: number };
  return row.n;
}

/** Every account's events left without a position by a process that died before numbering them. */
export async function sequenceStragglers(db: Sql): Promise<number> {
  const accounts = (await db.prepare('SELECT DISTINCT account_id FROM events WHERE pos IS NULL').all()) as Array<{ account_id: string }>;
  let n = 0;
  // No sender: the sweeping process's own listeners hear of them too (their writer is gone).
  for (const { account_id } of accounts) n += await sequenceFeed(db, account_id, '');
  return n;
}

/**
 * One numbering call in flight per account in this process (a call per send would be a
 * statement, a wait on the account's lock and, when it numbered something, a WAL flush per send).
 *
 * The rule it keeps: a write is answered only after a numbering call that started after its COMMIT
 * has finished (that call numbered its events, or found them numbered by an earlier one). So a write
 * that commits while a call is in flight waits for the NEXT call: the one in flight may have read
 * the account's unnumbered events before this commit. The writer that claimed the account runs the
 * calls on its own client (its first goes with its COMMIT), one more for each batch of writes that
 * waited meanwhile, until none wait; the writes that waited release their clients at once.
 */
export class FeedNumbering {
  /** Accounts with a call in flight from this process, and the writes waiting for the next call. */
  private readonly inFlight = new Map<string, Array<{ resolve: () => void; reject: (err: unknown) => void }>>();
  /** How many writes wait for the account's next call. */
  waiting(accountId: string): number {
    return this.inFlight.get(accountId)?.length ?? 0;
  }

  /** Takes the account's turn when no call of this process is in flight: the caller runs one, then `drive`s. */
  claim(accountId: string): boolean {
    if (this.inFlight.has(accountId)) return false;
    this.inFlight.set(accountId, []);
    return true;
  }

  /** For a write that committed while another's call was in flight (its `claim` failed): the next call's end. */
  next(accountId: string): Promise<void> {
    const waiting = this.inFlight.get(accountId);
    if (!waiting) throw new Error('FeedNumbering.next: no call in flight (claim first)');
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  }

  /**
   * After the claimer's own call: runs `call` again for each batch of writes that began waiting,
   * until none wait, then gives the account's turn back. A call that fails fails its batch and the
   * writes waiting behind it (their writes stand: the heartbeat numbers what was left), gives the
   * turn back and throws (the client may be broken).
   */
  async drive(accountId: string, call: () => Promise<unknown>): Promise<void> {
    for (;;) {
      const waiting = this.inFlight.get(accountId) ?? [];
      if (waiting.length === 0) {
        this.inFlight.delete(accountId);
        return;
      }
      this.inFlight.set(accountId, []);
      try {
        await call();
      } catch (err) {
        const rest = this.inFlight.get(accountId) ?? [];
        this.inFlight.delete(accountId);
        for (const w of [...waiting, ...rest]) w.reject(err);
        throw err;
      }
      for (const w of waiting) w.resolve();
    }
  }
}
