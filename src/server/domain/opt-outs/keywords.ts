// contract §4, "Opt-out keywords": which keyword an inbound text is, and the reply it gets. PURE: no
// storage, no clock; domain/opt-outs/opt-outs.ts decides what a keyword does for one consumer.
import { HELP_WORDS, START_WORDS, STOP_WORDS, type KeywordKind } from '../../../api/values/opt-outs.js';
import { MESSAGE_BODY_MAX } from '../../../api/schemas/messages.js';

/** The campaign fields the keyword rules read (spec: Campaign; each keyword list comma separated). */
export interface CampaignKeywordFields {
  optoutKeywords?: string | null;
  optoutMessage?: string | null;
  optinKeywords?: string | null;
  optinMessage?: string | null;
  helpKeywords?: string | null;
  helpMessage?: string | null;
}

export interface Keyword {
  kind: KeywordKind;
  /** The word as compared: trimmed, upper case. */
  word: string;
}

/** contract §4: bodies and keywords are compared trimmed and without case. */
export const normalizeKeyword = (text: string): string => text.trim().toUpperCase();

/** A campaign's comma-separated keyword list as words (blank entries dropped). */
export function campaignWords(list: string | null | undefined): string[] {
  return (list ?? '').split(',').map(normalizeKeyword).filter((w) => w !== '');
}

/**
 * The keyword an inbound body is, or null for an ordinary message: the WHOLE body, trimmed and
 * without case, must be a word (`stop please` is ordinary). A word on several lists is a stop word
 * first, then a start word (an opt-out is never missed because a campaign also listed the word
 * elsewhere).
 */
export function keywordOf(body: string, campaign?: CampaignKeywordFields): Keyword | null {
  const word = normalizeKeyword(body);
  if (word === '') return null;
  const lists: Array<[KeywordKind, readonly string[]]> = [
    ['stop', [...STOP_WORDS, ...campaignWords(campaign?.optoutKeywords)]],
    ['start', [...START_WORDS, ...campaignWords(campaign?.optinKeywords)]],
    ['help', [...HELP_WORDS, ...campaignWords(campaign?.helpKeywords)]],
  ];
  for (const [kind, words] of lists) if (words.includes(word)) return { kind, word };
  return null;
}

/**
 * spec: Limits — a message body is at most MESSAGE_BODY_MAX characters, and a campaign's message may
 * be longer (registration texts allow 4096): the reply keeps the start, never half a surrogate pair.
 */
function withinBodyLimit(text: string): string {
  if (text.length <= MESSAGE_BODY_MAX) return text;
  const cut = text.slice(0, MESSAGE_BODY_MAX);
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}

/**
 * The reply to a keyword: the campaign's message for it, or a default naming the account (contract
 * §4; the help default also says how to stop).
 */
export function replyText(kind: KeywordKind, accountName: string, campaign?: CampaignKeywordFields): string {
  const own = { stop: campaign?.optoutMessage, start: campaign?.optinMessage, help: campaign?.helpMessage }[kind]?.trim();
  if (own) return withinBodyLimit(own);
  switch (kind) {
    case 'stop':
      return `${accountName}: you are unsubscribed and will receive no more messages from this number. Reply START to resubscribe.`;
    case 'start':
      return `${accountName}: you are resubscribed and will receive messages from this number again. Reply STOP to unsubscribe.`;
    case 'help':
      return `${accountName}: reply STOP to unsubscribe from this number, START to resubscribe. Msg & data rates may apply.`;
  }
}
