import type { Dialect, Statements } from './statements.js';
import { asIs, column, json, table, type Row } from './table.js';
import type { MailboxMessageRecord, MailboxRepo } from '../mailbox-repo.js';

const MAILBOX = table<MailboxMessageRecord>('mailbox_messages', {
  seq: asIs,
  id: asIs,
  accountId: asIs,
  emailId: asIs,
  to: column('to_address'),
  from: column('from_header'),
  subject: asIs,
  text: asIs,
  html: asIs,
  tags: json,
  deliveredAt: asIs,
});

/** What a delivery writes: the body is the email's (`BODY_COLUMNS`). */
const NEW_MESSAGE = ['id', 'accountId', 'emailId', 'to', 'from', 'subject', 'tags', 'deliveredAt'] as const;

/** A message's body: its own copy (rows before migration 16), else the email's text or html, else the text derived from it. */
const BODY_COLUMNS = `COALESCE(m.text, e.text, d.text) AS text, COALESCE(m.html, e.html) AS html`;

export class SqlMailboxRepo implements MailboxRepo {
  private readonly insertStmt;
  private readonly headStmt;
  private readonly hasDerivedTextStmt;
  private readonly keepDerivedTextStmt;
  constructor(
    private readonly db: Statements,
    private readonly dialect: Dialect,
  ) {
    this.insertStmt = db.prepare(`${MAILBOX.insertSql(NEW_MESSAGE)} RETURNING seq`);
    this.headStmt = db.prepare('SELECT COALESCE(MAX(seq), 0) AS head FROM mailbox_messages WHERE account_id = ?');
    this.hasDerivedTextStmt = db.prepare('SELECT 1 FROM email_derived_texts WHERE email_id = ?');
    this.keepDerivedTextStmt = db.prepare('INSERT INTO email_derived_texts (email_id, text) VALUES (?, ?) ON CONFLICT (email_id) DO UPDATE SET text = excluded.text');
  }

  async insert(m: Omit<MailboxMessageRecord, 'seq' | 'text' | 'html'>): Promise<number> {
    await this.dialect.lockFeed(this.db, m.accountId);
    return ((await this.insertStmt.get(...MAILBOX.values(m, this.dialect, NEW_MESSAGE))) as { seq: number }).seq;
  }

  async hasDerivedText(emailId: string): Promise<boolean> {
    return await this.hasDerivedTextStmt.get(emailId) !== undefined;
  }

  async keepDerivedText(emailId: string, text: string): Promise<void> {
    await this.keepDerivedTextStmt.run(emailId, text);
  }

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
      .all(...params, limit) as Row[];
    return rows.map(MAILBOX.read);
  }

  async headSeq(accountId: string): Promise<number> {
    return (await this.headStmt.get(accountId) as { head: number }).head;
  }
}
