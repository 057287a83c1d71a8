import { iso, isoOrNull } from '../clock.js';
import type { Email } from '../../api/schemas/email.js';
import type { RecipientKind } from '../../api/values/email.js';
import type { EmailWithRecipients } from '../domain/email/send.js';
import type { RecipientRecord } from '../storage/emails-repo.js';

// Records → the Email shape (contract §8). Rules for reads: views/README.md.
// `to`, `cc` and `bcc` list the bare addresses of the recipient rows of each kind, in the order given
// (display names are parsed off at the accept; only `from` is kept exactly as written).

const addressesOf = (recipients: RecipientRecord[], kind: RecipientKind): string[] => recipients.filter((r) => r.kind === kind).map((r) => r.address);

export const emailView = ({ email: e, recipients }: EmailWithRecipients): Email => ({
  id: e.id,
  status: e.status,
  from: e.from,
  to: addressesOf(recipients, 'to'),
  cc: addressesOf(recipients, 'cc'),
  bcc: addressesOf(recipients, 'bcc'),
  subject: e.subject,
  tags: e.tags,
  metadata: e.metadata,
  externalRef: e.externalRef,
  recipients: recipients.map((r) => ({
    address: r.address,
    kind: r.kind,
    status: r.status,
    openedAt: isoOrNull(r.openedAt),
    clickedAt: isoOrNull(r.clickedAt),
    complainedAt: isoOrNull(r.complainedAt),
    unsubscribedAt: isoOrNull(r.unsubscribedAt),
  })),
  createdAt: iso(e.createdAt),
  updatedAt: iso(e.updatedAt),
});
