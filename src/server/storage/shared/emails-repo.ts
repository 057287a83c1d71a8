import type { Dialect, Statement, Statements } from './statements.js';
import { keysetPage } from './keyset-page.js';
import { asIs, column, json, table, type Row } from './table.js';
import type { Page } from '../../../api/schemas/page.js';
import type { EmailStatus } from '../../../api/values/email.js';
import type { EmailRecord, RecipientRecord, NewRecipient, RecipientPatch, EmailTimelineEntry, EmailsRepo } from '../emails-repo.js';

const EMAILS = table<EmailRecord>('emails', {
  id: asIs,
  accountId: asIs,
  domainId: asIs,
  status: asIs,
  mode: asIs,
  from: column('from_header'),
  subject: asIs,
  html: asIs,
  text: asIs,
  tags: json,
  metadata: json,
  externalRef: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});

const RECIPIENTS = table<RecipientRecord>('email_recipients', {
  seq: asIs,
  emailId: asIs,
  address: asIs,
  kind: asIs,
  status: asIs,
  openedAt: asIs,
  clickedAt: asIs,
  complainedAt: asIs,
  unsubscribedAt: asIs,
  deliveredAt: asIs,
  updatedAt: asIs,
});

/** What the accept path writes of a recipient: the rest waits for the mail server's jobs. */
const NEW_RECIPIENT = ['emailId', 'address', 'kind', 'status', 'updatedAt'] as const;

const TIMELINE = table<EmailTimelineEntry>('email_events', {
  emailId: asIs,
  recipientSeq: asIs,
  type: asIs,
  status: asIs,
  occurredAt: asIs,
  bounce: json,
  url: asIs,
  method: asIs,
});

const HOUR_MS = 3_600_000;
/** The start of the hour holding `ms`: the reputation counters' bucket. */
const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;

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
    this.insertEmailStmt = db.prepare(EMAILS.insertSql());
    this.insertRecipientStmt = db.prepare(RECIPIENTS.insertSql(NEW_RECIPIENT));
    this.getStmt = db.prepare('SELECT * FROM emails WHERE id = ? AND account_id = ?');
    this.byIdStmt = db.prepare('SELECT * FROM emails WHERE id = ?');
    this.recipientsStmt = db.prepare('SELECT * FROM email_recipients WHERE email_id = ? ORDER BY seq');
    this.setStatusStmt = db.prepare('UPDATE emails SET status = ?, updated_at = ? WHERE id = ?');
    this.insertTimelineStmt = db.prepare(TIMELINE.insertSql());
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

  async insert(e: EmailRecord, recipients: NewRecipient[]): Promise<RecipientRecord[]> {
    await this.insertEmailStmt.run(...EMAILS.values(e, this.d));
    for (const r of recipients) {
      await this.insertRecipientStmt.run(...RECIPIENTS.values({ ...r, emailId: e.id, updatedAt: e.createdAt }, this.d, NEW_RECIPIENT));
    }
    return this.recipients(e.id);
  }

  async get(accountId: string, id: string): Promise<EmailRecord | undefined> {
    const row = (await this.getStmt.get(id, accountId)) as Row | undefined;
    return row && EMAILS.read(row);
  }

  async getById(id: string): Promise<EmailRecord | undefined> {
    const row = (await this.byIdStmt.get(id)) as Row | undefined;
    return row && EMAILS.read(row);
  }

  async recipients(emailId: string): Promise<RecipientRecord[]> {
    return ((await this.recipientsStmt.all(emailId)) as Row[]).map(RECIPIENTS.read);
  }

  async updateRecipient(seq: number, patch: RecipientPatch): Promise<void> {
    const keys = (Object.keys(patch) as (keyof RecipientPatch)[]).sort();
    const shape = keys.join(',');
    let stmt = this.updateRecipientStmts.get(shape);
    if (!stmt) {
      stmt = this.db.prepare(`UPDATE email_recipients SET ${RECIPIENTS.setSql(keys)} WHERE seq = ?`);
      this.updateRecipientStmts.set(shape, stmt);
    }
    await stmt.run(...RECIPIENTS.values(patch, this.d, keys), seq);
  }

  async setStatus(id: string, status: EmailStatus, updatedAt: number): Promise<void> {
    await this.setStatusStmt.run(status, updatedAt, id);
  }

  async addTimelineEntry(t: EmailTimelineEntry): Promise<void> {
    await this.insertTimelineStmt.run(...TIMELINE.values(t, this.d));
  }

  async timeline(emailId: string): Promise<EmailTimelineEntry[]> {
    return ((await this.timelineStmt.all(emailId)) as Row[]).map(TIMELINE.read);
  }

  async list(accountId: string, limit: number, cursor?: string, status?: EmailStatus): Promise<Page<EmailRecord>> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (status) {
      where.push('status = ?');
      params.push(status);
    }
    return await keysetPage(this.db, { from: 'emails', where, params, limit, cursor, map: EMAILS.read });
  }

  async deliveredWindow(accountId: string, sinceMs: number): Promise<{ delivered: number; complained: number }> {
    const row = await this.deliveredWindowStmt.get(accountId, hourOf(sinceMs)) as { delivered: number; complained: number };
    return { delivered: row.delivered, complained: row.complained };
  }

  async countDelivered(accountId: string, deliveredAt: number): Promise<void> {
    await this.countDeliveredStmt.run(accountId, hourOf(deliveredAt));
  }

  async countComplained(accountId: string, deliveredAt: number): Promise<void> {
    await this.countComplainedStmt.run(accountId, hourOf(deliveredAt));
  }
}
