// The emails family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { EmailStatus, RecipientKind, RecipientStatus } from '../../../api/values/email.js';
import type { KEY_MODES } from '../../../api/values/keys.js';
import type { EmailRecord, RecipientRecord, RecipientPatch, EmailTimelineEntry } from '../emails-repo.js';

type KeyMode = (typeof KEY_MODES)[number];

// spec: Email resource; contract §8. An email, its recipients (one row each, in the order given:
// to, then cc, then bcc) and its per-recipient timeline (migration 10). The accept path inserts;
// the simulated mail server's jobs update recipients, the email's status and the timeline, each
// in the transaction that emits the matching event.

export interface EmailRow {
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

export interface RecipientRow {
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

export interface TimelineRow {
  email_id: string;
  recipient_seq: number;
  type: string;
  status: string;
  occurred_at: number;
  bounce: string | null;
  url: string | null;
  method: 'link' | 'one_click' | null;
}

export const toEmail = (r: EmailRow): EmailRecord => ({
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

export const toRecipient = (r: RecipientRow): RecipientRecord => ({
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

export const toTimeline = (r: TimelineRow): EmailTimelineEntry => ({
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
export const RECIPIENT_COLUMNS: Record<keyof RecipientPatch, string> = {
  status: 'status',
  openedAt: 'opened_at',
  clickedAt: 'clicked_at',
  complainedAt: 'complained_at',
  unsubscribedAt: 'unsubscribed_at',
  deliveredAt: 'delivered_at',
  updatedAt: 'updated_at',
};

const HOUR_MS = 3_600_000;
/** The start of the hour holding `ms`: the reputation counters' bucket. */
export const hourOf = (ms: number): number => Math.floor(ms / HOUR_MS) * HOUR_MS;
