import type { Db } from './database.js';

// contract §8 (extension): the mail sandbox — every message the simulated mail server delivered for
// a live email, one row per delivered recipient, read oldest first by position (`seq`).

export interface MailboxMessageRecord {
  seq: number;
  id: string;
  accountId: string;
  emailId: string;
  to: string;
  from: string;
  subject: string | null;
  text: string | null;
  html: string | null;
  tags: string[];
  deliveredAt: number;
}

interface MailboxRow {
  seq: number;
  id: string;
  account_id: string;
  email_id: string;
  to_address: string;
  from_header: string;
  subject: string | null;
  text: string | null;
  html: string | null;
  tags: string;
  delivered_at: number;
}

const toRecord = (r: MailboxRow): MailboxMessageRecord => ({
  seq: r.seq,
  id: r.id,
  accountId: r.account_id,
  emailId: r.email_id,
  to: r.to_address,
  from: r.from_header,
  subject: r.subject,
  text: r.text,
  html: r.html,
  tags: JSON.parse(r.tags) as string[],
  deliveredAt: r.delivered_at,
});

export class MailboxRepo {
  private readonly insertStmt;
  private readonly headStmt;
  constructor(private readonly db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO mailbox_messages (id, account_id, email_id, to_address, from_header, subject, text, html, tags, delivered_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.headStmt = db.prepare('SELECT COALESCE(MAX(seq), 0) AS head FROM mailbox_messages WHERE account_id = ?');
  }

  /** Call inside the transaction that records the delivery. Returns the row's position. */
  insert(m: Omit<MailboxMessageRecord, 'seq'>): number {
    return Number(
      this.insertStmt.run(m.id, m.accountId, m.emailId, m.to, m.from, m.subject, m.text, m.html, JSON.stringify(m.tags), m.deliveredAt).lastInsertRowid,
    );
  }

  /** The account's messages after a position, oldest first; `to` matches case-insensitively. */
  page(accountId: string, afterSeq: number, limit: number, to?: string): MailboxMessageRecord[] {
    const where = ['account_id = ?', 'seq > ?'];
    const params: unknown[] = [accountId, afterSeq];
    if (to !== undefined) {
      where.push('lower(to_address) = lower(?)');
      params.push(to);
    }
    const rows = this.db.prepare(`SELECT * FROM mailbox_messages WHERE ${where.join(' AND ')} ORDER BY seq LIMIT ?`).all(...params, limit) as MailboxRow[];
    return rows.map(toRecord);
  }

  /** The account's newest position (0: none yet). */
  headSeq(accountId: string): number {
    return (this.headStmt.get(accountId) as { head: number }).head;
  }
}
