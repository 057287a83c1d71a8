// Opt-out facts as plain values (no zod): the service's keyword rules, the storage CHECK list and the
// CLI read them. contract §4, "Opt-out keywords" (CTIA: what carriers require of every sender).

/** contract §4: the words that opt a consumer out of one number, compared trimmed and without case. */
export const STOP_WORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'REVOKE', 'OPTOUT'] as const;
/** contract §4: the words that lift an opt-out. */
export const START_WORDS = ['START', 'UNSTOP', 'YES'] as const;
/** contract §4: the words answered with the help message. */
export const HELP_WORDS = ['HELP', 'INFO'] as const;

/** What an inbound keyword asks for; a campaign adds words to each (`optoutKeywords`, `optinKeywords`, `helpKeywords`). */
export const KEYWORD_KINDS = ['stop', 'start', 'help'] as const;
export type KeywordKind = (typeof KEYWORD_KINDS)[number];

/**
 * Decision (contract §4 keeps no history in the API): an opt-out row stays when the consumer lifts
 * it, `lifted`, so the record of who opted out and back in, when and with which word is kept; the
 * list shows the `active` ones.
 */
export const OPT_OUT_STATUSES = ['active', 'lifted'] as const;
export type OptOutStatus = (typeof OPT_OUT_STATUSES)[number];

/** The reason a send to an opted-out consumer is refused (`422 channel_unsupported`, `details.reason`). */
export const OPTED_OUT_REASON = 'opted_out';
