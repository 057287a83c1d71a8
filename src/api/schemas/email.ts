import { z } from 'zod';
import { NullableTimestamp, Timestamp } from './common.js';
import { ListQuerySchema, pageOf } from './page.js';
import { FEED_WAIT_MAX_SECS } from './events.js';
import {
  BOUNCE_CLASSES,
  DNS_RECORD_PURPOSES,
  DNS_RECORD_STATUSES,
  DNS_RECORD_TYPES,
  DOMAIN_STATUSES,
  EMAIL_LIMITS,
  EMAIL_STATUSES,
  HOSTNAME_LIMITS,
  RECIPIENT_KINDS,
  MAILBOX_LIMIT_DEFAULT,
  MAILBOX_LIMIT_MAX,
  RECIPIENT_STATUSES,
  SANDBOX_DNS_LIMITS,
  SANDBOX_EMAIL_EVENT_TYPES,
  SUPPRESSION_REASONS,
  UNSUBSCRIBE_METHODS,
} from '../values/email.js';

// spec: Sending domain, Email resource, Email domains endpoints, Send email body, Limits;
// contract §8 (domain, email, suppressions, the mail sandbox), §9 (sandbox DNS).

export const DomainStatus = z.enum(DOMAIN_STATUSES);
export const DnsRecordSchema = z
  .object({
    type: z.enum(DNS_RECORD_TYPES),
    name: z.string(),
    value: z.string(),
    purpose: z.enum(DNS_RECORD_PURPOSES),
    status: z.enum(DNS_RECORD_STATUSES),
  })
  .meta({ id: 'DnsRecord' });
export const DomainSchema = z
  .object({
    id: z.string(),
    domain: z.string(),
    status: DomainStatus,
    records: z.array(DnsRecordSchema),
    createdAt: Timestamp,
    verifiedAt: NullableTimestamp,
    lastCheckedAt: NullableTimestamp,
  })
  .meta({ id: 'Domain' });
export type Domain = z.infer<typeof DomainSchema>;
export const DomainPage = pageOf(DomainSchema);
export const ListDomainsQuery = ListQuerySchema.extend({ status: DomainStatus.optional() });
export const CreateDomainBody = z.strictObject({ domain: z.string().min(1).max(253) }).meta({ id: 'CreateDomainBody' });

const Recipients = z.union([z.string().min(1).max(320), z.array(z.string().min(1).max(320))]);
/** spec: Send email body. Cross-field rules (50 recipients in total, html or text) are the domain's. */
export const SendEmailBody = z
  .strictObject({
    from: z.string().min(1).max(640).describe('"Name <address>" or an address on a verified domain'),
    to: Recipients.optional(),
    cc: Recipients.optional(),
    bcc: Recipients.optional(),
    subject: z.string().max(998).optional(),
    html: z.string().optional().describe(`at most ${EMAIL_LIMITS.bodyBytes} bytes`),
    text: z.string().optional().describe(`at most ${EMAIL_LIMITS.bodyBytes} bytes`),
    tags: z.array(z.string().min(1).max(256)).max(EMAIL_LIMITS.tags).optional(),
    metadata: z.record(z.string(), z.string()).optional().describe(`at most ${EMAIL_LIMITS.metadataPairs} pairs`),
    externalRef: z.string().max(256).optional(),
  })
  .meta({ id: 'SendEmailBody' });
export type SendEmailBody = z.infer<typeof SendEmailBody>;

export const EmailRecipientSchema = z
  .object({
    address: z.string(),
    kind: z.enum(RECIPIENT_KINDS),
    status: z.enum(RECIPIENT_STATUSES),
    openedAt: NullableTimestamp,
    clickedAt: NullableTimestamp,
    complainedAt: NullableTimestamp,
    unsubscribedAt: NullableTimestamp,
  })
  .meta({ id: 'EmailRecipient' });
export const EmailSchema = z
  .object({
    id: z.string(),
    status: z.enum(EMAIL_STATUSES),
    from: z.string(),
    to: z.array(z.string()),
    cc: z.array(z.string()),
    bcc: z.array(z.string()),
    subject: z.string().nullable(),
    tags: z.array(z.string()),
    metadata: z.record(z.string(), z.string()),
    externalRef: z.string().nullable(),
    recipients: z.array(EmailRecipientSchema),
    createdAt: Timestamp,
    updatedAt: Timestamp,
  })
  .meta({ id: 'Email' });
export type Email = z.infer<typeof EmailSchema>;
/** `GET /v1/emails` (an extension): the page query and one email status. */
export const ListEmailsQuery = ListQuerySchema.extend({ status: z.enum(EMAIL_STATUSES).optional() });

export const BounceSchema = z
  .object({ class: z.enum(BOUNCE_CLASSES), code: z.number().int().nullable(), message: z.string().nullable() })
  .meta({ id: 'Bounce' });
/** contract §8: one entry of an email's per-recipient timeline. */
export const EmailEventSchema = z
  .object({
    type: z.string(),
    recipient: z.string().optional(),
    recipientKind: z.enum(RECIPIENT_KINDS),
    status: z.string(),
    occurredAt: Timestamp,
    bounce: BounceSchema.optional(),
    url: z.string().optional(),
    method: z.enum(UNSUBSCRIBE_METHODS).optional(),
  })
  .meta({ id: 'EmailEvent' });
export const EmailEventsSchema = z.object({ data: z.array(EmailEventSchema) }).meta({ id: 'EmailEvents' });

export const SuppressionSchema = z
  .object({ address: z.string(), reason: z.enum(SUPPRESSION_REASONS), emailId: z.string().nullable(), createdAt: Timestamp })
  .meta({ id: 'Suppression' });
export type Suppression = z.infer<typeof SuppressionSchema>;
export const SuppressionPage = pageOf(SuppressionSchema);
/** `DELETE /v1/email-suppressions/{address}`: the address, URL-encoded in the path. */
export const SuppressionAddressParams = z.strictObject({ address: z.string().min(1).max(320) });
export const ListSuppressionsQuery = ListQuerySchema.extend({ reason: z.enum(SUPPRESSION_REASONS).optional() });

/** contract §8 (extension): one message the simulated mail server delivered. */
export const MailboxMessageSchema = z
  .object({
    id: z.string(),
    emailId: z.string(),
    to: z.string(),
    from: z.string(),
    subject: z.string().nullable(),
    text: z.string().nullable(),
    html: z.string().nullable(),
    tags: z.array(z.string()),
    deliveredAt: Timestamp,
  })
  .meta({ id: 'MailboxMessage' });
export const MailboxSchema = z.object({ data: z.array(MailboxMessageSchema), cursor: z.string() }).meta({ id: 'Mailbox' });

// contract §9: the sandbox DNS table (mail-domains).
const DnsRecordInput = z.strictObject({ type: z.enum(DNS_RECORD_TYPES), value: z.string().min(1).max(2048) });
export const SandboxDnsBody = z
  .strictObject({
    records: z.array(DnsRecordInput).max(SANDBOX_DNS_LIMITS.recordsPerName),
    visibleAfterSecs: z.number().int().min(0).max(SANDBOX_DNS_LIMITS.maxVisibleAfterSecs).optional(),
  })
  .meta({ id: 'SandboxDnsBody' });
export type SandboxDnsBody = z.infer<typeof SandboxDnsBody>;
export const SandboxDnsEntrySchema = z
  .object({
    name: z.string(),
    records: z.array(z.object({ type: z.enum(DNS_RECORD_TYPES), value: z.string() })),
    visibleAt: Timestamp,
    propagating: z.boolean(),
    updatedAt: Timestamp,
  })
  .meta({ id: 'SandboxDnsEntry' });
export type SandboxDnsEntry = z.infer<typeof SandboxDnsEntrySchema>;
export const DnsNameParams = z.strictObject({ name: z.string().min(1).max(HOSTNAME_LIMITS.nameChars + 1) });
/** contract §8 (extension): `GET /v1/sandbox/mailbox`, with the events feed's `after`/`wait`. */
export const MailboxQuery = z.object({
  to: z.string().min(1).max(320).optional().describe('Only messages to this address (case-insensitive)'),
  after: z.string().min(1).max(200).optional().describe('Cursor of a previous response, or `now` for the newest position'),
  limit: z.coerce.number().int().min(1).max(MAILBOX_LIMIT_MAX).default(MAILBOX_LIMIT_DEFAULT),
  wait: z.coerce.number().int().min(0).max(FEED_WAIT_MAX_SECS).default(0).describe(`Seconds (0-${FEED_WAIT_MAX_SECS}) to hold a request that finds no message until one arrives`),
});
export type MailboxQuery = z.infer<typeof MailboxQuery>;

/** contract §9: a mail server's report, open, click, complaint or unsubscribe about one recipient. */
export const SandboxEmailEventBody = z
  .strictObject({
    emailId: z.string().min(1).max(200),
    recipient: z.string().min(1).max(320).describe('The recipient address (case-insensitive)'),
    type: z.enum(SANDBOX_EMAIL_EVENT_TYPES),
  })
  .meta({ id: 'SandboxEmailEventBody' });
export type SandboxEmailEventBody = z.infer<typeof SandboxEmailEventBody>;
export type MailboxMessage = z.infer<typeof MailboxMessageSchema>;
export type Mailbox = z.infer<typeof MailboxSchema>;
export type EmailEvents = z.infer<typeof EmailEventsSchema>;
