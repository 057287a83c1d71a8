// Message facts as plain values (no zod): the schemas build their enums from these, and the CLI
// offers them as flag choices at start-up without loading zod. spec: Message status; contract §4.
export const MESSAGE_DIRECTIONS = ['outbound', 'inbound'] as const;
export const MESSAGE_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'undelivered', 'received'] as const;
export type MessageStatusValue = (typeof MESSAGE_STATUSES)[number];
/** spec: Message status — the states a message never leaves. */
export const FINAL_MESSAGE_STATUSES: ReadonlySet<string> = new Set<MessageStatusValue>(['delivered', 'failed', 'undelivered', 'received']);
/** contract §4: the carrier outcomes the sandbox can be asked for (`svc trigger message.status`). */
export const MESSAGE_OUTCOMES = ['delivered', 'failed', 'undelivered'] as const satisfies readonly MessageStatusValue[];
