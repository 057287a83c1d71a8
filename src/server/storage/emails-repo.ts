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

export interface EmailsRepo {
  /** The email and its recipients, in order; returns the recipients with their seq. Call inside a transaction. */
  insert(e: EmailRecord, recipients: NewRecipient[]): Promise<RecipientRecord[]>;
  /** The account's email (another account's is not found). */
  get(accountId: string, id: string): Promise<EmailRecord | undefined>;
  /** Background work (the mail server's jobs) reads by id alone. */
  getById(id: string): Promise<EmailRecord | undefined>;
  recipients(emailId: string): Promise<RecipientRecord[]>;
  updateRecipient(seq: number, patch: RecipientPatch): Promise<void>;
  setStatus(id: string, status: EmailStatus, updatedAt: number): Promise<void>;
  addTimelineEntry(t: EmailTimelineEntry): Promise<void>;
  /** Oldest first (contract §8). */
  timeline(emailId: string): Promise<EmailTimelineEntry[]>;
  /** Newest first, keyset-paged (contract §2); `status` narrows to one email status. */
  list(accountId: string, limit: number, cursor?: string, status?: EmailStatus): Promise<Page<EmailRecord>>;
  /**
   * contract §8 (complaint-rate pause): the account's live recipients delivered in the hours from
   * the one holding `sinceMs` on, and how many of them complained, from the hourly counters
   * (migration 11): at most 721 rows, however much mail the account sent.
   */
  deliveredWindow(accountId: string, sinceMs: number): Promise<{ delivered: number; complained: number }>;
  /** Counts one live recipient delivered at `deliveredAt` (in the transaction that delivers it). */
  countDelivered(accountId: string, deliveredAt: number): Promise<void>;
  /** Counts a first complaint, in the hour its recipient was delivered (the rate is of the window's deliveries). */
  countComplained(accountId: string, deliveredAt: number): Promise<void>;
}

