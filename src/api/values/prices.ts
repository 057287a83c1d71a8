// contract §11: the one price table, in cents. Every charge in the service reads from here; zod-free,
// so the CLI can quote prices too (billing, cli.md amounts).
export const PRICES = {
  /** per SMS segment, charged on `sent` (live only) */
  smsSegment: 1,
  /** per MMS message */
  mmsMessage: 3,
  /** per started voice minute */
  voiceMinute: 2,
  /** per started transcription minute */
  transcriptionMinute: 3,
  /** local number, per month (first month charged on buy) */
  localNumberMonthly: 115,
  /** toll-free number, per month (first month charged on buy) */
  tollfreeNumberMonthly: 215,
  /** emergency calling on a number, per month */
  emergencyMonthly: 150,
  /** email: per started block of this many non-suppressed recipients of one email */
  emailRecipientBlock: 10,
  /** email: price of one started block of recipients */
  emailPerRecipientBlock: 1,
  /** 10DLC brand registration */
  brandRegistration: 400,
  /** 10DLC brand vetting */
  brandVetting: 4000,
  /** 10DLC campaign registration */
  campaignRegistration: 1500,
  /** port-in, per number */
  portPerNumber: 100,
} as const;

export const LOCAL_MONTHLY_CENTS = PRICES.localNumberMonthly;
export const TOLLFREE_MONTHLY_CENTS = PRICES.tollfreeNumberMonthly;

/** Cents for one accepted email: 1 per started block of 10 non-suppressed recipients (0 for none). */
export const emailChargeCents = (recipients: number): number =>
  Math.ceil(Math.max(0, recipients) / PRICES.emailRecipientBlock) * PRICES.emailPerRecipientBlock;
