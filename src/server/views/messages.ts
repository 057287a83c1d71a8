import { iso } from '../clock.js';
import type { MessageRecord } from '../storage/messages-repo.js';
import type { Message } from '../../api/schemas/messages.js';

// Records → API shapes for messages (spec: Message). Every spec field is always present. Rules for
// reads: views/README.md.

export const messageView = (m: MessageRecord): Message => ({
  id: m.id,
  to: m.to,
  from: m.from,
  body: m.body,
  direction: m.direction,
  status: m.status,
  segments: m.segments,
  channel: m.channel,
  media: m.media,
  createdAt: iso(m.createdAt),
  reason: m.reason,
  test: m.test,
  updatedAt: iso(m.updatedAt),
});
