import { iso } from './clock.js';
import type { MessageRecord, ConversationRecord } from './storage/messages-repo.js';
import type { NumberRecord } from './storage/numbers-repo.js';
import type { Message } from '../api/schemas/messages.js';
import type { ConversationSummary } from '../api/schemas/conversations.js';
import type { AvailableNumber, PhoneNumber } from '../api/schemas/numbers.js';
import type { AvailableNumber as InventoryNumber } from './world/number-inventory.js';

// Records → API shapes for messaging and numbers (spec: Message, Conversation, Phone number,
// Available number). Every spec field is always present.

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

export const conversationView = (c: ConversationRecord): ConversationSummary => ({
  counterparty: c.counterparty,
  lastBody: c.last.body,
  lastAt: iso(c.lastAt),
  direction: c.last.direction,
  lastMessageId: c.last.id,
});

export const numberView = (n: NumberRecord, campaignName: string | null): PhoneNumber => ({
  id: n.id,
  phoneNumber: n.phoneNumber,
  label: n.label,
  // Inbound routing arrives with the voice work; until then no number has a route.
  route: null,
  status: n.status,
  type: n.type,
  capabilities: { ...n.capabilities },
  campaignId: n.campaignId,
  campaignName: n.campaignId ? campaignName : null,
  callerIdName: { name: n.callerIdName, status: n.callerIdStatus },
  emergency: { enabled: n.emergencyEnabled, address: n.emergencyAddress, status: n.emergencyStatus },
  tfvStatus: n.tfvStatus,
  tfvRejectionReason: n.tfvRejectionReason,
  releasedAt: n.releasedAt === null ? null : iso(n.releasedAt),
  locality: n.locality,
  region: n.region,
  createdAt: iso(n.createdAt),
});

export const availableNumberView = (n: InventoryNumber): AvailableNumber => ({
  phoneNumber: n.phoneNumber,
  type: n.type,
  capabilities: { ...n.capabilities },
  monthlyPriceCents: n.monthlyPriceCents,
  locality: n.locality,
  region: n.region,
});
