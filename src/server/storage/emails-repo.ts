import type { Db } from './database.js';
import { keysetPage } from './pagination.js';
import type { Page } from '../../api/schemas/page.js';
import type { EmailStatus, RecipientKind, RecipientStatus } from '../../api/values/email.js';
import type { KEY_MODES } from '../../api/values/keys.js';

type KeyMode = (typeof KEY_MODES)[number];

// spec: Email resource; contract §8. An email, its recipients (one row each, in the order given:
// to, then cc, then bcc) and its per-recipient timeline (migration 10). The accept path inserts;
// the simulated mail server's jobs update recipients, the email's status and the timeline, each
// in the transaction that emits the matching event.

export interface EmailRecord {
  id: string;
  accountId: string;
  domainId: string;
  status: EmailStatus;
  mode: KeyMode;
  /** The `from` as given (a display name may precede the address). */
  from: string;
  subject: string | null;
  html: string | null;
  text: string | null;
  tags: string[];
  metadata: Record<string, string>;
  externalRef: string | null;
  createdAt: number;
  updatedAt: number;
}

export interface RecipientRecord {
  /** The row's own id: the timeline and a bcc recipient are told apart by it. */
  seq: number;
  emailId: string;
  address: string;
  kind: RecipientKind;
  status: RecipientStatus;
  openedAt: number | null;
  clickedAt: number | null;
  complainedAt: number | null;
  unsubscribedAt: number | null;
  deliveredAt: number | null;
  updatedAt: number;
}

export type NewRecipient = Pick<RecipientRecord, 'address' | 'kind' | 'status'>;
export type RecipientPatch = Partial<Omit<RecipientRecord, 'seq' | 'emailId' | 'address' | 'kind'>> & { updatedAt: number };

/** One timeline entry (contract §8 `GET /v1/emails/{id}/events`). */
export interface EmailTimelineEntry {
  emailId: string;
  recipientSeq: number;
  type: string;
  status: string;
  occurredAt: number;
  bounce: { class: string; code: number | null; message: string | null } | null;
  url: string | null;
  method: 'link' | 'one_click' | null;
}

interface EmailRow {
  seq: number;
  id: string;
  account_id: string;
  domain_id: string;
  status: EmailStatus;
  mode: KeyMode;
  from_header: string;
  subject: string | null;
  html: string | null;
  text: string | null;
  tags: string;
  metadata: string;
  external_ref: string | null;
  created_at: number;
  updated_at: number;
}

interface RecipientRow {
  seq: number;
  email_id: string;
  address: string;
  kind: RecipientKind;
  status: RecipientStatus;
  opened_at: number | null;
  clicked_at: number | null;
  complained_at: number | null;
  unsubscribed_at: number | null;
  delivered_at: number | null;
  updated_at: number;
}

interface TimelineRow {
  email_id: string;
  recipient_seq: number;
  type: string;
  status: string;
  occurred_at: number;
  bounce: string | null;
  url: string | null;
  method: 'link' | 'one_click' | null;
}

const toEmail = (r: EmailRow): EmailRecord => ({
  id: r.id,
  accountId: r.account_id,
  domainId: r.domain_id,
  status: r.status,
  mode: r.mode,
  from: r.from_header,
  subject: r.subject,
  html: r.html,
  text: r.text,
  tags: JSON.parse(r.tags) as string[],
  metadata: JSON.parse(r.metadata) as Record<string, string>,
  externalRef: r.external_ref,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const toRecipient = (r: RecipientRow): RecipientRecord => ({
  seq: r.seq,
  emailId: r.email_id,
  address: r.address,
  kind: r.kind,
  status: r.status,
  openedAt: r.opened_at,
  clickedAt: r.clicked_at,
  complainedAt: r.complained_at,
  unsubscribedAt: r.unsubscribed_at,
  deliveredAt: r.delivered_at,
  updatedAt: r.updated_at,
});

const toTimeline = (r: TimelineRow): EmailTimelineEntry => ({
  emailId: r.email_id,
  recipientSeq: r.recipient_seq,
  type: r.type,
  status: r.status,
  occurredAt: r.occurred_at,
  bounce: r.bounce === null ? null : (JSON.parse(r.bounce) as EmailTimelineEntry['bounce']),
  url: r.url,
  method: r.method,
});

/** RecipientPatch keys → columns (fixed in code, never user input). */
const RECIPIENT_COLUMNS: Record<keyof RecipientPatch, string> = {
  status: 'status',
  openedAt: 'opened_at',
  clickedAt: 'clicked_at',
  complainedAt: 'complained_at',
  unsubscribedAt: 'unsubscribed_at',
  deliveredAt: 'delivered_at',
  updatedAt: 'updated_at',
};

export class EmailsRepo {
  private readonly insertEmailStmt;
  private readonly insertRecipientStmt;
  private readonly getStmt;
  private readonly byIdStmt;
  private readonly recipientsStmt;
  private readonly setStatusStmt;
  private readonly insertTimelineStmt;
  private readonly timelineStmt;
  private readonly deliveredWindowStmt;
  constructor(private readonly db: Db) {
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
      `SELECT COUNT(*) AS delivered, COUNT(r.complained_at) AS complained
         FROM email_recipients r JOIN emails e ON e.id = r.email_id
        WHERE e.account_id = ? AND e.mode = ? AND r.delivered_at IS NOT NULL AND r.delivered_at >= ?`,
    );
  }

  /** The email and its recipients, in order; returns the recipients with their seq. Call inside a transaction. */
  insert(e: EmailRecord, recipients: NewRecipient[]): RecipientRecord[] {
    this.insertEmailStmt.run(
      e.id, e.accountId, e.domainId, e.status, e.mode, e.from, e.subject, e.html, e.text,
      JSON.stringify(e.tags), JSON.stringify(e.metadata), e.externalRef, e.createdAt, e.updatedAt,
    );
    for (const r of recipients) this.insertRecipientStmt.run(e.id, r.address, r.kind, r.status, e.createdAt);
    return this.recipients(e.id);
  }

  /** The account's email (another account's is not found). */
  get(accountId: string, id: string): EmailRecord | undefined {
    const row = this.getStmt.get(id, accountId) as EmailRow | undefined;
    return row && toEmail(row);
  }

  /** Background work (the mail server's jobs) reads by id alone. */
  getById(id: string): EmailRecord | undefined {
    const row = this.byIdStmt.get(id) as EmailRow | undefined;
    return row && toEmail(row);
  }

  recipients(emailId: string): RecipientRecord[] {
    return (this.recipientsStmt.all(emailId) as RecipientRow[]).map(toRecipient);
  }

  updateRecipient(seq: number, patch: RecipientPatch): void {
    const keys = Object.keys(patch) as (keyof RecipientPatch)[];
    const sets = keys.map((k) => `${RECIPIENT_COLUMNS[k]} = ?`).join(', ');
    this.db.prepare(`UPDATE email_recipients SET ${sets} WHERE seq = ?`).run(...keys.map((k) => patch[k] ?? null), seq);
  }

  setStatus(id: string, status: EmailStatus, updatedAt: number): void {
    this.setStatusStmt.run(status, updatedAt, id);
  }

  addTimelineEntry(t: EmailTimelineEntry): void {
    this.insertTimelineStmt.run(t.emailId, t.recipientSeq, t.type, t.status, t.occurredAt, t.bounce && JSON.stringify(t.bounce), t.url, t.method);
  }

  /** Oldest first (contract §8). */
  timeline(emailId: string): EmailTimelineEntry[] {
    return (this.timelineStmt.all(emailId) as TimelineRow[]).map(toTimeline);
  }

  /** Newest first, keyset-paged (contract §2); `status` narrows to one email status. */
  list(accountId: string, limit: number, cursor?: string, status?: EmailStatus): Page<EmailRecord> {
    const where = ['account_id = ?'];
    const params: unknown[] = [accountId];
    if (status) {
      where.push('status = ?');
      params.push(status);
    }
    return keysetPage<EmailRow, EmailRecord>(this.db, { from: 'emails', where, params, limit, cursor, map: toEmail });
  }

  /**
   * contract §8 (complaint-rate pause): the account's recipients delivered at or after `sinceMs` and
   * how many of them complained, for emails sent with keys of `mode`. One query: the partial index on
   * delivered_at (migration 10) bounds the window, each row reaches its email by the unique id.
   */
  deliveredWindow(accountId: string, mode: KeyMode, sinceMs: number): { delivered: number; complained: number } {
    const row = this.deliveredWindowStmt.get(accountId, mode, sinceMs) as { delivered: number; complained: number };
    return { delivered: row.delivered, complained: row.complained };
  }
}
