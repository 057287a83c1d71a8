import type { RecipientKind } from '../../../api/values/email.js';
import type { EmailRecord, RecipientRecord } from '../../storage/emails-repo.js';

// spec: Event catalog — "Common email fields (all email events are per recipient): emailId,
// recipient (omitted for a bcc recipient that cannot be told apart from other bcc recipients),
// recipientKind, occurredAt, tags, metadata, externalRef (string or null), status".

/** spec: Event catalog — the `status` each email event carries. */
export const EMAIL_EVENT_STATUS = {
  'email.sent': 'sent',
  'email.delivered': 'delivered',
  'email.opened': 'delivered',
  'email.clicked': 'delivered',
  'email.unsubscribed': 'delivered',
  'email.deferred': 'deferred',
  'email.bounced': 'bounced',
  'email.failed': 'failed',
  'email.complained': 'complained',
} as const;
export type EmailEventType = keyof typeof EMAIL_EVENT_STATUS;

const domainOf = (address: string): string => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Decision (the spec does not say when bcc recipients "cannot be told apart"): a mail server
 * reports per SMTP transaction, and bcc copies to one receiving domain travel in one transaction,
 * so a bcc recipient is indistinguishable when another bcc recipient of the same email shares its
 * domain. Such a recipient's events omit `recipient`; a lone bcc recipient on its domain keeps it.
 */
export function bccIndistinguishable(recipient: Pick<RecipientRecord, 'seq' | 'address' | 'kind'>, all: readonly Pick<RecipientRecord, 'seq' | 'address' | 'kind'>[]): boolean {
  if (recipient.kind !== 'bcc') return false;
  const domain = domainOf(recipient.address);
  return all.some((r) => r.kind === 'bcc' && r.seq !== recipient.seq && domainOf(r.address) === domain);
}

export interface CommonEmailFields {
  emailId: string;
  recipient?: string;
  recipientKind: RecipientKind;
  occurredAt: string;
  tags: string[];
  metadata: Record<string, string>;
  externalRef: string | null;
  status: string;
}

/** The common fields of one email event about one recipient (`all`: every recipient of the email). */
export function commonEmailFields(
  type: EmailEventType,
  email: Pick<EmailRecord, 'id' | 'tags' | 'metadata' | 'externalRef'>,
  recipient: Pick<RecipientRecord, 'seq' | 'address' | 'kind'>,
  all: readonly Pick<RecipientRecord, 'seq' | 'address' | 'kind'>[],
  occurredAtMs: number,
): CommonEmailFields {
  return {
    emailId: email.id,
    ...(bccIndistinguishable(recipient, all) ? {} : { recipient: recipient.address }),
    recipientKind: recipient.kind,
    occurredAt: new Date(occurredAtMs).toISOString(),
    tags: email.tags,
    metadata: email.metadata,
    externalRef: email.externalRef,
    status: EMAIL_EVENT_STATUS[type],
  };
}
