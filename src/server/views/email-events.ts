import { iso } from '../clock.js';
import type { EmailEvents } from '../../api/schemas/email.js';
import type { EmailTimeline } from '../domain/email/email-events.js';
import { bccIndistinguishable } from '../domain/email/event-fields.js';

// Records → API shapes for an email's timeline (contract §8 `GET /v1/emails/{id}/events`). A bcc
// recipient that cannot be told apart omits `recipient`, by the same rule as the events
// (domain/email/event-fields.ts). Rules for reads: views/README.md.

export function emailEventsView({ recipients, entries }: EmailTimeline): EmailEvents {
  const bySeq = new Map(recipients.map((r) => [r.seq, r]));
  return {
    data: entries.map((e) => {
      const r = bySeq.get(e.recipientSeq)!;
      return {
        type: e.type,
        ...(bccIndistinguishable(r, recipients) ? {} : { recipient: r.address }),
        recipientKind: r.kind,
        status: e.status,
        occurredAt: iso(e.occurredAt),
        ...(e.bounce ? { bounce: e.bounce as NonNullable<EmailEvents['data'][number]['bounce']> } : {}),
        ...(e.url !== null ? { url: e.url } : {}),
        ...(e.method !== null ? { method: e.method } : {}),
      };
    }),
  };
}
