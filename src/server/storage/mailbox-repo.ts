
// contract §8 (extension): the mail sandbox — every message the simulated mail server delivered for
// a live email, one row per delivered recipient, read oldest first by position (`seq`). A row holds
// no body of its own (migration 16): it reads the email's html and text, or the text derived from
// the html once per email (`email_derived_texts`); rows written before that keep their own copy.

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

export interface MailboxRepo {
  /** Call inside the transaction that records the delivery; the body is the email's. Returns the row's position. */
  insert(m: Omit<MailboxMessageRecord, 'seq' | 'text' | 'html'>): Promise<number>;
  /** Whether the text derived from an email's html is kept. */
  hasDerivedText(emailId: string): Promise<boolean>;
  /** Keeps the text derived from an email's html, which its messages show as their text part. */
  keepDerivedText(emailId: string, text: string): Promise<void>;
  /** The account's messages after a position, oldest first; `to` matches case-insensitively. */
  page(accountId: string, afterSeq: number, limit: number, to?: string): Promise<MailboxMessageRecord[]>;
  /** The account's newest position (0: none yet). */
  headSeq(accountId: string): Promise<number>;
}

