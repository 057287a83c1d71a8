import { iso, isoOrNull } from '../clock.js';
import type { Email } from '../../api/schemas/email.js';
import type { EmailWithRecipients } from '../domain/email/email-events.js';

// INTERIM (issue 11): the Email shape (contract §8) for `POST /v1/sandbox/email-events`, kept in
// this one file until `views/emails.ts` (the accept path's view) is merged; then the route calls
// that view and this file is deleted.

export const interimEmailView = ({ email, recipients }: EmailWithRecipients): Email => ({
  id: email.id,
  status: email.status,
  from: email.from,
  to: recipients.filter((r) => r.kind === 'to').map((r) => r.address),
  cc: recipients.filter((r) => r.kind === 'cc').map((r) => r.address),
  bcc: recipients.filter((r) => r.kind === 'bcc').map((r) => r.address),
  subject: email.subject,
  tags: [...email.tags],
  metadata: { ...email.metadata },
  externalRef: email.externalRef,
  recipients: recipients.map((r) => ({
    address: r.address,
    kind: r.kind,
    status: r.status,
    openedAt: isoOrNull(r.openedAt),
    clickedAt: isoOrNull(r.clickedAt),
    complainedAt: isoOrNull(r.complainedAt),
    unsubscribedAt: isoOrNull(r.unsubscribedAt),
  })),
  createdAt: iso(email.createdAt),
  updatedAt: iso(email.updatedAt),
});
