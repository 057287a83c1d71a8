import type { Dialect, Statement, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import type { Page } from '../../../api/schemas/page.js';
import type { EmailStatus } from '../../../api/values/email.js';
import type { EmailRecord, RecipientRecord, NewRecipient, RecipientPatch, EmailTimelineEntry, EmailsRepo } from '../emails-repo.js';
import { EmailRow, RecipientRow, TimelineRow, toEmail, toRecipient, toTimeline, RECIPIENT_COLUMNS, hourOf } from '../rows/emails.js';

export class SqlEmailsRepo implements EmailsRepo {
  private readonly insertEmailStmt;
  private readonly insertRecipientStmt;
  private readonly getStmt;
  private readonly byIdStmt;
  private readonly recipientsStmt;
  private readonly setStatusStmt;
  private readonly insertTimelineStmt;
  private readonly timelineStmt;
  private readonly deliveredWindowStmt;
  private readonly countDeliveredStmt;
  private readonly countComplainedStmt;
  /** A handful of shapes exist (a status move, a first open…): each prepared once, not its text built per step. */
  private readonly updateRecipientStmts = new Map<string, Statement>();
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.insertEmailStmt = db.prepare(
      `INSERT INTO emails (id, account_id, domain_id, status, mode, from_header, subject, html, text, tags, metadata, external_ref, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertRecipientStmt = db.prepare('INSERT INTO email_recipients (email_id, address, kind, status, updated_at) VALUES (?, ?, ?, ?, ?)');
    this.getStmt = db.prepare('SELECT * FROM emails WHERE id = ? AND account_id = ?');
    this.byIdStmt = db.prepare('SELECT * FROM emails WHERE id = ?');
    this.recipientsStmt = db.prepare('SELECT * FROM email_recipients WHERE email_id = ? ORDER BY seq');
    this.setStatusStmt = db.prepare('UPDATE emails SET status = ?, updated_at = ? WHERE id = ?');
    this.insertTimelineStmt = db.prepare(
      'INSERT INTO email_events (email_id, recipient_seq, type, status, occurred_at, bounce, url, method) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.timelineStmt = db.prepare('SELECT * FROM email_events WHERE email_id = ? ORDER BY seq');
    this.deliveredWindowStmt = db.prepare(
      // CAST: PostgreSQL sums a bigint column to a numeric, which its driver reads as text.
      'SELECT CAST(COALESCE(SUM(delivered), 0) AS BIGINT) AS delivered, CAST(COALESCE(SUM(complained), 0) AS BIGINT) AS complained FROM email_reputation WHERE account_id = ? AND hour >= ?',
    );
    this.countDeliveredStmt = db.prepare(
      'INSERT INTO email_reputation (account_id, hour, delivered) VALUES (?, ?, 1) ON CONFLICT (account_id, hour) DO UPDATE SET delivered = email_reputation.delivered + 1',
    );
    this.countComplainedStmt = db.prepare(
      'INSERT INTO email_reputation (account_id, hour, complained) VALUES (?, ?, 1) ON CONFLICT (account_id, hour) DO UPDATE SET complained = email_reputation.complained + 1',
    );
  }

  /** The email and its recipients, in order; returns the recipients with their seq. Call inside a transaction. */
  async insert(e: EmailRecord, recipients: NewRecipient[]): Promise<RecipientRecord[]> {
    await this.insertEmailStmt.run(
      e.id, e.accountId, e.domainId, e.status, e.mode, e.from, e.subject, e.html, e.text,
      JSON.stringify(e.tags), JSON.stringify(e.metadata), e.externalRef, e.createdAt, e.updatedAt,
    );
    for (const r of recipients) await this.insertRecipientStmt.run(e.id, r.address, r.kind, r.status, e.createdAt);
    return this.recipients(e.id);
  }

  /** The account's email (another account's is not found). */
  async get(accountId: string, id: string): Promise<EmailRecord | undefined> {
    const row = await this.getStmt.get(id, accountId) as EmailRow | undefined;
    return row && toEmail(row);
  }

  /** Background work (the mail server's jobs) reads by id alone. */
  async getById(id: string): Promise<EmailRecord | undefined> {
    const row = await this.byIdStmt.get(id) as EmailRow | undefined;
    return row && toEmail(row);
  }

  async recipients(emailId: string): Promise<RecipientRecord[]> {
    return (await this.recipientsStmt.all(emailId) as RecipientRow[]).map(toRecipient);
  }

  async updateRecipient(seq: number, patch: RecipientPatch): Promise<void> {
    const keys = (Object.keys(patch) as (keyof RecipientPatch)[]).sort();
    const shape = keys.join(',');
    let stmt = this.updateRecipientStmts.get(shape);
    if (!stmt) {
      stmt = this.db.prepare(`UPDATE email_recipients SET ${keys.map((k) => `${RECIPIENT_COLUMNS[k]} = ?`).join(', ')} WHERE seq = ?`);
      this.updateRecipientStmts.set(shape, stmt);
    }
    await stmt.run(...keys.map((k) => patch[k] ?? null), seq);
  }

  async setStatus(id: string, status: EmailStatus, updatedAt: number): Promise<void> {
    await this.setStatusStmt.run(status, updatedAt, id);
  }

  async addTimelineEntry(t: EmailTimelineEntry): Promise<void> {
    await this.insertTimelineStmt.run(t.emailId, t.recipientSeq, t.type, t.status, t.occurredAt, t.bounce && JSON.stringify(t.bounce), t.url, t.method);
  }

  /** Oldest first (contract §8). */
  async timeline(emailId: string): Promise<EmailTimelineEntry[]> {
    return (await this.timelineStmt.all(emailId) as TimelineRow[]).map(toTimeline);
  }

  /** Newest first, keyset-paged (contract §2); `status` narrows to one email status. */
  async list(accountId: string, limit: number, cursor?: string, status?: EmailStatus): Promise<Page<EmailRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (status) {
      where.push('status = ?');
      params.push(status);
    }
    return await keysetPage<EmailRow, EmailRecord>(this.db, { from: 'emails', where, params, limit, cursor, map: toEmail });
  }

  /**
   * contract §8 (complaint-rate pause): the account's live recipients delivered in the hours from
   * the one holding `sinceMs` on, and how many of them complained, from the hourly counters
   * (migration 11): at most 721 rows, however much mail the account sent.
   */
  async deliveredWindow(accountId: string, sinceMs: number): Promise<{ delivered: number; complained: number }> {
    const row = await this.deliveredWindowStmt.get(accountId, hourOf(sinceMs)) as { delivered: number; complained: number };
    return { delivered: row.delivered, complained: row.complained };
  }

  /** Counts one live recipient delivered at `deliveredAt` (in the transaction that delivers it). */
  async countDelivered(accountId: string, deliveredAt: number): Promise<void> {
    await this.countDeliveredStmt.run(accountId, hourOf(deliveredAt));
  }

  /** Counts a first complaint, in the hour its recipient was delivered (the rate is of the window's deliveries). */
  async countComplained(accountId: string, deliveredAt: number): Promise<void> {
    await this.countComplainedStmt.run(accountId, hourOf(deliveredAt));
  }
}
