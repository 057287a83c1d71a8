import type { Statement } from 'better-sqlite3';
import type { Db } from './database.js';
import type { MessageMove, ProcessNotice, PROCESS_NOTICE_KINDS } from '../store.js';

// The notices one process leaves in the file for another (migration 20; the why is in
// storage/store.ts `StoreNotices`). Leaving one is an INSERT in the open transaction; reading is a
// range on the primary key past the last row read, run only when the file moved.

/**
 * How many notices the table keeps: the reader looks every 25 ms (worker-link.ts POLL_MS), so it
 * would have to fall this far behind to lose one (and it then re-reads everything: `missed`).
 */
export const NOTICES_KEPT = 10_000;
/** The writer drops notices past NOTICES_KEPT once in this many: one DELETE on the primary key. */
const PRUNE_EVERY = 500;
/** Rows read per statement. */
const READ_BATCH = 500;

interface NoticeRow {
  seq: number;
  kind: (typeof PROCESS_NOTICE_KINDS)[number];
  account_id: string;
  ref: string;
  detail: string | null;
  move: string | null;
}

const toNotice = (r: NoticeRow): ProcessNotice =>
  r.kind === 'event'
    ? { event: { id: r.ref, accountId: r.account_id, type: r.detail ?? '', ...(r.move === null ? {} : { move: JSON.parse(r.move) as MessageMove }) } }
    : { change: r.detail === null ? { accountId: r.account_id, kind: r.kind, id: r.ref } : { accountId: r.account_id, kind: r.kind, id: r.ref, status: r.detail } };

export class SqliteProcessNotices {
  private readonly insert: Statement<[string, string, string, string | null, string | null]>;
  private readonly prune: Statement<[number]>;
  private readonly after: Statement<[number, number]>;
  /** The last notice this process read (or the newest when it opened: older ones are not its business). */
  private lastSeq: number;
  private left = 0;

  constructor(private readonly db: Db) {
    this.insert = db.prepare('INSERT INTO process_notices (kind, account_id, ref, detail, move) VALUES (?, ?, ?, ?, ?)');
    this.prune = db.prepare('DELETE FROM process_notices WHERE seq <= ?');
    this.after = db.prepare('SELECT seq, kind, account_id, ref, detail, move FROM process_notices WHERE seq > ? ORDER BY seq LIMIT ?');
    this.lastSeq = (db.prepare('SELECT coalesce(max(seq), 0) AS head FROM process_notices').get() as { head: number }).head;
  }

  /** In the open transaction (its savepoint): the notice commits or rolls back with the change. */
  leave(notice: ProcessNotice): void {
    if (!this.db.inTransaction) throw new Error('a process notice was left outside a transaction: leave it in the write of what it stands for');
    const { lastInsertRowid } =
      'event' in notice
        ? this.insert.run('event', notice.event.accountId, notice.event.id, notice.event.type, notice.event.move ? JSON.stringify(notice.event.move) : null)
        : this.insert.run(notice.change.kind, notice.change.accountId, notice.change.id, notice.change.status ?? null, null);
    if (++this.left % PRUNE_EVERY === 0) this.prune.run(Number(lastInsertRowid) - NOTICES_KEPT);
  }

  /**
   * The notices past the last one read, oldest first. Sequence numbers follow one another (one
   * writer; a rolled-back insert gives its number back), so a first row past the next one expected
   * means the writer dropped some this process never read.
   */
  heard(): { notices: ProcessNotice[]; missed: boolean } {
    const notices: ProcessNotice[] = [];
    let missed = false;
    for (;;) {
      const rows = this.after.all(this.lastSeq, READ_BATCH) as NoticeRow[];
      if (rows.length === 0) break;
      if (rows[0]!.seq > this.lastSeq + 1) missed = true;
      for (const r of rows) notices.push(toNotice(r));
      this.lastSeq = rows[rows.length - 1]!.seq;
      if (rows.length < READ_BATCH) break;
    }
    return { notices, missed };
  }
}
