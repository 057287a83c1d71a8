import { z } from 'zod';
import { E164, E164_PATTERN, Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import { MESSAGE_DIRECTIONS, MESSAGE_STATUSES } from '../values/messages.js';

// spec: Message — resource, send body and limits. contract §4.

export const MESSAGE_BODY_MAX = 1600; // spec: Limits, message body
export const MEDIA_URLS_MAX = 10; // spec: Limits, media URLs
/** The reserved sender: always a test send, needs no ownership and no campaign (spec: Authentication 3). */
export const TEST_SENDER = '+15005550006';

export const MessageDirection = z.enum(MESSAGE_DIRECTIONS);
export const MessageStatus = z.enum(MESSAGE_STATUSES);
export type MessageStatus = z.infer<typeof MessageStatus>;
export const MessageChannel = z.enum(['sms', 'mms']);

export const MediaSchema = z.object({ url: z.string(), contentType: z.string(), filename: z.string() }).meta({ id: 'MessageMedia' });
export type Media = z.infer<typeof MediaSchema>;

export const MessageSchema = z
  .object({
    id: z.string(),
    to: z.string(),
    from: z.string(),
    body: z.string(),
    direction: MessageDirection,
    status: MessageStatus,
    segments: z.number().int().min(0),
    channel: MessageChannel,
    media: z.array(MediaSchema).nullable(),
    createdAt: Timestamp,
    // Extensions (contract: extra response fields are allowed).
    /** Sanitized carrier reason for `failed` / `undelivered`, else null. */
    reason: z.string().nullable(),
    /** True for a stubbed send (test key, or from +15005550006): never billed, never reaches a carrier. */
    test: z.boolean(),
    updatedAt: Timestamp,
  })
  .meta({ id: 'Message' });
export type Message = z.infer<typeof MessageSchema>;
export const MessagePage = pageOf(MessageSchema);

// The carrier fetches each media URL, so only http(s) URLs are accepted.
const MediaUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }).max(2000);

const messageContent = {
  body: z.string().max(MESSAGE_BODY_MAX).optional(),
  mediaUrls: z.array(MediaUrl).max(MEDIA_URLS_MAX).optional(),
};

/**
 * spec: Errors — a send with neither `body` nor `mediaUrls` is a validation_error (named on `body`).
 * An empty body or an empty `mediaUrls` counts as none: a text with no content and no media is not a message.
 */
function requireBodyOrMedia(b: { body?: string; mediaUrls?: string[] }, ctx: z.RefinementCtx): void {
  if (!b.body && !b.mediaUrls?.length) {
    ctx.addIssue({ code: 'custom', path: ['body'], message: 'required unless mediaUrls is given' });
  }
}

export const SendMessageBody = z
  .strictObject({ to: E164, from: E164, ...messageContent })
  .superRefine(requireBodyOrMedia)
  .meta({ id: 'SendMessageBody' });
export type SendMessageBody = z.infer<typeof SendMessageBody>;

/** contract §9: sandbox inbound text (a consumer texting one of the account's numbers). */
export const InboundMessageBody = z
  .strictObject({ from: E164, to: E164, ...messageContent })
  .superRefine(requireBodyOrMedia)
  .meta({ id: 'InboundMessageBody' });
export type InboundMessageBody = z.infer<typeof InboundMessageBody>;

/**
 * E.164 in a query string or path. An unencoded `+` in a query string decodes to a space, so a
 * leading space before digits is read as the `+` the client meant.
 */
export const E164Lenient = z.preprocess(
  (v) => (typeof v === 'string' && /^ \d/.test(v) ? `+${v.slice(1)}` : v),
  z.string().regex(E164_PATTERN, 'must be an E.164 phone number like +14155550123 (percent-encode the + as %2B)'),
);

export const ListMessagesQuery = ListQuerySchema.extend({
  direction: MessageDirection.optional(),
  from: E164Lenient.optional(),
  to: E164Lenient.optional(),
  status: MessageStatus.optional(),
});
export type ListMessagesQuery = z.infer<typeof ListMessagesQuery>;

export const MessageIdParams = z.strictObject({ id: z.string().min(1).max(200) });
