import type { Dialect, Statements } from './statements.js';
import type { MailboxMessageRecord, MailboxRepo } from '../mailbox-repo.js';
import { MailboxRow, toRecord, BODY_COLUMNS } from '../rows/mailbox.js';

export class SqlMailboxRepo implements MailboxRepo {
  private readonly insertStmt;
  private readonly headStmt;
  private readonly hasDerivedTextStmt;
  private readonly keepDerivedTextStmt;
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {
    this.insertStmt = db.prepare(
      `INSERT INTO mailbox_messages (id, account_id, email_id, to_address, from_header, subject, tags, delivered_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING seq`,
    );
    this.headStmt = db.prepare('SELECT COALESCE(MAX(seq), 0) AS head FROM mailbox_messages WHERE account_id = ?');
    this.hasDerivedTextStmt = db.prepare('SELECT 1 FROM email_derived_texts WHERE email_id = ?');
    this.keepDerivedTextStmt = db.prepare('INSERT INTO email_derived_texts (email_id, text) VALUES (?, ?) ON CONFLICT (email_id) DO UPDATE SET text = excluded.text');
  }

  /** Call inside the transaction that records the delivery; the body is the email's. Returns the row's position. */
  async insert(m: Omit<MailboxMessageRecord, 'seq' | 'text' | 'html'>): Promise<number> {
    await this.dialect.lockFeed(this.db, m.accountId);
    return ((await this.insertStmt.get(m.id, m.accountId, m.emailId, m.to, m.from, m.subject, JSON.stringify(m.tags), m.deliveredAt)) as { seq: number }).seq;
  }

  /** Whether the text derived from an email's html is kept. */
  async hasDerivedText(emailId: string): Promise<boolean> {
    return await this.hasDerivedTextStmt.get(emailId) !== undefined;
  }

  /** Keeps the text derived from an email's html, which its messages show as their text part. */
  async keepDerivedText(emailId: string, text: string): Promise<void> {
    await this.keepDerivedTextStmt.run(emailId, text);
  }

  /** The account's messages after a position, oldest first; `to` matches case-insensitively. */
  async page(accountId: string, afterSeq: number, limit: number, to?: string): Promise<MailboxMessageRecord[]> {
    const where = ['m.account_id = ?', 'm.seq > ?'];
    const params: unknown[] = [accountId, afterSeq];
    if (to !== undefined) {
      where.push('lower(m.to_address) = lower(?)');
      params.push(to);
    }
    const rows = await this.db
      .prepare(
        `SELECT m.seq, m.id, m.account_id, m.email_id, m.to_address, m.from_header, m.subject, m.tags, m.delivered_at, ${BODY_COLUMNS}
           FROM mailbox_messages m JOIN emails e ON e.id = m.email_id LEFT JOIN email_derived_texts d ON d.email_id = m.email_id
          WHERE ${where.join(' AND ')} ORDER BY m.seq LIMIT ?`,
      )
      .all(...params, limit) as MailboxRow[];
    return rows.map(toRecord);
  }

  /** The account's newest position (0: none yet). */
  async headSeq(accountId: string): Promise<number> {
    return (await this.headStmt.get(accountId) as { head: number }).head;
  }
}
