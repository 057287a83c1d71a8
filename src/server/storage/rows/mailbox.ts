// The mailbox family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { MailboxMessageRecord } from '../mailbox-repo.js';

// contract §8 (extension): the mail sandbox — every message the simulated mail server delivered for
// a live email, one row per delivered recipient, read oldest first by position (`seq`). A row holds
// no body of its own (migration 16): it reads the email's html and text, or the text derived from
// the html once per email (`email_derived_texts`); rows written before that keep their own copy.

export interface MailboxRow {
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

export const toRecord = (r: MailboxRow): MailboxMessageRecord => ({
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

/** A message's body: its own copy (rows before migration 16), else the email's text or html, else the text derived from it. */
export const BODY_COLUMNS = `COALESCE(m.text, e.text, d.text) AS text, COALESCE(m.html, e.html) AS html`;
