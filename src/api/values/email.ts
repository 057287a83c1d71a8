// Email facts as plain values (no zod): the schemas, the domain, the simulated mail server and the CLI
// read them. spec: Email resource, Sending domain, Sending domain status, Email status, Send email body,
// Limits, Event catalog (`domain.*`, `email.*`); contract §8 (email), §9 (sandbox DNS).

/** spec: Sending domain — `status` (expired domains are released and no longer exist). */
export const DOMAIN_STATUSES = ['pending', 'verified', 'failed', 'degraded'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

/** contract §8: the purposes of a domain's DNS records; `dmarc` is recommended, not required. */
export const DNS_RECORD_PURPOSES = ['verification', 'spf', 'dkim', 'return_path', 'dmarc'] as const;
export type DnsRecordPurpose = (typeof DNS_RECORD_PURPOSES)[number];
export const REQUIRED_DNS_PURPOSES: readonly DnsRecordPurpose[] = ['verification', 'spf', 'dkim', 'return_path'];
/** Decision (contract §8 names no values): a record's state as the last check saw it. */
export const DNS_RECORD_STATUSES = ['pending', 'valid', 'invalid', 'missing'] as const;
/** contract §9: the sandbox DNS table's record types. */
export const DNS_RECORD_TYPES = ['TXT', 'CNAME', 'MX'] as const;

/** spec: Email status. */
export const EMAIL_STATUSES = ['queued', 'sent', 'delivered', 'partially_delivered', 'bounced', 'failed'] as const;
export type EmailStatus = (typeof EMAIL_STATUSES)[number];
/** contract §8: a recipient's delivery status. */
export const RECIPIENT_STATUSES = ['queued', 'sent', 'deferred', 'delivered', 'bounced', 'failed', 'suppressed'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
/** contract §8: recipient kinds. */
export const RECIPIENT_KINDS = ['to', 'cc', 'bcc'] as const;
export type RecipientKind = (typeof RECIPIENT_KINDS)[number];
/** contract §8: why an address is suppressed; complaints cannot be removed. */
export const SUPPRESSION_REASONS = ['hard_bounce', 'complaint', 'unsubscribe'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];
/** spec: Event catalog — `bounce.class`. */
export const BOUNCE_CLASSES = ['hard', 'soft', 'administrative', 'expired', 'unknown'] as const;
/** spec: Event catalog — `email.unsubscribed` `method`. */
export const UNSUBSCRIBE_METHODS = ['link', 'one_click'] as const;

/** spec: Limits (email). */
export const EMAIL_LIMITS = {
  recipients: 50,
  bodyBytes: 1024 * 1024,
  tags: 10,
  metadataPairs: 20,
} as const;

/** spec: Limits — complaint rate above 0.2 % pauses sending; contract §8: of the last 30 days' delivered, once 500 were delivered. */
export const COMPLAINT_PAUSE = {
  rate: 0.002,
  minDelivered: 500,
  windowSecs: 30 * 86_400,
} as const;

/** spec: Limits — domains re-checked for 72 hours; released after 7 days unverified. */
export const DOMAIN_TIMINGS = {
  recheckForSecs: 72 * 3600,
  releaseAfterSecs: 7 * 86_400,
} as const;

/** contract §8: the simulated mail server's domain and the local parts it reads. */
export const SIMULATOR_DOMAIN = 'simulator.test';
export const SIMULATOR_ADDRESSES = ['bounce', 'soft-bounce', 'defer', 'complaint', 'open', 'click', 'unsubscribe'] as const;

// --- sending domains: the records to publish and the check schedule (mail-domains) ---------------
// Decision (contract §8 names the purposes only): the records follow Amazon SES's layout — a
// verification TXT, SPF and an MX on a return-path subdomain, an "Easy DKIM" style CNAME, a DMARC TXT.
// The CLI reads the same facts (zone-file output), so they are written here once.

/** The simulated provider's mail host; every record points under it. */
export const MAIL_HOST = 'mail.svc.test';
/** The return-path (MAIL FROM) subdomain of a sending domain: SPF and the bounce MX live there. */
export const RETURN_PATH_LABEL = 'send';
export const DOMAIN_RECORD_FORMATS = {
  verificationName: (domain: string) => `_svc-verification.${domain}`,
  verificationValue: (token: string) => `svc-verification=${token}`,
  returnPathName: (domain: string) => `${RETURN_PATH_LABEL}.${domain}`,
  spfValue: `v=spf1 include:spf.${MAIL_HOST} ~all`,
  returnPathMx: `10 feedback.${MAIL_HOST}`,
  dkimName: (selector: string, domain: string) => `${selector}._domainkey.${domain}`,
  dkimTarget: (selector: string) => `${selector}.dkim.${MAIL_HOST}`,
  dmarcName: (domain: string) => `_dmarc.${domain}`,
  dmarcValue: 'v=DMARC1; p=none;',
} as const;

/**
 * Decision (spec: Limits says "re-checked for 72 hours"): a never-verified domain is re-checked every
 * 10 minutes during its first hour, then hourly, the last check at 72 h after creation; a domain that
 * was ever verified is checked every 24 hours, forever. Release at DOMAIN_TIMINGS.releaseAfterSecs.
 */
export const DOMAIN_CHECK_SCHEDULE = {
  earlyEverySecs: 600,
  earlyForSecs: 3600,
  thenEverySecs: 3600,
  verifiedEverySecs: 86_400,
} as const;

/** DNS hostname syntax (RFC 1035 / 1123): a label is 1-63 characters, the whole name at most 253. */
export const HOSTNAME_LIMITS = { labelChars: 63, nameChars: 253 } as const;

/** Decision (contract §9 sets no bounds): the sandbox DNS table's limits per name. */
export const SANDBOX_DNS_LIMITS = { recordsPerName: 20, maxVisibleAfterSecs: 30 * 86_400 } as const;
/**
 * contract §8: when the simulated mail server acts, in service-clock seconds after the handover
 * (`email.sent`). Short, so following a send on a real clock (`--wait`) stays quick.
 */
export const MAIL_SIMULATOR_TIMINGS = {
  /** The receiving server accepts (or refuses) the message. */
  deliverAfterSecs: 1,
  /** A deferred message is retried this long after the deferral. */
  deferRetryAfterSecs: 10,
  /** The recipient opens, complains or unsubscribes this long after the delivery. */
  engageAfterSecs: 3,
  /** A click follows the open by this long. */
  clickAfterOpenSecs: 2,
} as const;

/** Decision: what a simulated click reports when the email has no http(s) link in its html. */
export const SIMULATOR_DEFAULT_CLICK_URL = 'https://example.com/';

/** contract §9: the reports `POST /v1/sandbox/email-events` stands in for. */
export const SANDBOX_EMAIL_EVENT_TYPES = ['bounce', 'complaint', 'open', 'click', 'unsubscribe'] as const;
export type SandboxEmailEventType = (typeof SANDBOX_EMAIL_EVENT_TYPES)[number];

/** contract §8 (extension): a mail sandbox page. */
export const MAILBOX_LIMIT_DEFAULT = 20;
export const MAILBOX_LIMIT_MAX = 100;
