import { iso } from '../clock.js';
import type { Mailbox, MailboxMessage } from '../../api/schemas/email.js';
import type { MailboxMessageRecord } from '../storage/mailbox-repo.js';
import type { MailboxPage } from '../domain/email/mailbox.js';

// Records → API shapes for the mail sandbox (contract §8 extension). Rules for reads: views/README.md.

export const mailboxMessageView = (m: MailboxMessageRecord): MailboxMessage => ({
  id: m.id,
  emailId: m.emailId,
  to: m.to,
  from: m.from,
  subject: m.subject,
  text: m.text,
  html: m.html,
  tags: [...m.tags],
  deliveredAt: iso(m.deliveredAt),
});

export const mailboxView = (page: MailboxPage): Mailbox => ({ data: page.messages.map(mailboxMessageView), cursor: page.cursor });
