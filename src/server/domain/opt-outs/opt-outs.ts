// contract §4, "Opt-out keywords" (CTIA): a consumer's stop word opts them out of ONE number of the
// account, a start word lifts it, a help word is answered. Inbound texts reach this through
// domain/messages.ts receiveInbound (which sends the reply); every send asks assertNotOptedOut first.
import type { Clock } from '../../clock.js';
import { iso } from '../../clock.js';
import { newId } from '../../ids.js';
import { ServiceError } from '../../errors.js';
import type { Actor } from '../actor.js';
import type { AccountRecord } from '../../storage/accounts-repo.js';
import type { OptOutFilters, OptOutRecord, OptOutsRepo } from '../../storage/opt-outs-repo.js';
import type { Page } from '../../../api/schemas/page.js';
import { OPTED_OUT_REASON, type KeywordKind } from '../../../api/values/opt-outs.js';
import { keywordOf, replyText, type CampaignKeywordFields } from './keywords.js';

export interface OptOutDeps {
  clock: Clock;
  optOuts: OptOutsRepo;
}

/** An inbound text as the keyword rules see it. */
export interface InboundText {
  /** The account's number texted (null: the test sender). */
  numberId: string | null;
  /** That number, E.164. */
  to: string;
  /** The consumer. */
  from: string;
  body: string;
}

export interface KeywordReply {
  kind: KeywordKind;
  /** What the number replies, once, to the consumer. */
  text: string;
}

/**
 * What an inbound text does as a keyword; call inside the inbound transaction. Returns the reply to
 * send, or null for an ordinary message. A stop word opts the consumer out of that number (once: a
 * consumer already opted out gets no second record and no second reply); a start word lifts an
 * opt-out (and is an ordinary message when there is none: a plain "yes" to a number you never left
 * is a conversation, not a keyword); a help word is always answered, opted out or not.
 */
export async function answerKeyword(deps: OptOutDeps, account: AccountRecord, text: InboundText, campaign?: CampaignKeywordFields): Promise<KeywordReply | null> {
  const keyword = keywordOf(text.body, campaign);
  if (!keyword) return null;
  const active = await deps.optOuts.findActive(account.id, text.to, text.from);
  if (keyword.kind === 'stop') {
    if (active) return null;
    await deps.optOuts.insert({
      id: newId('opt'),
      accountId: account.id,
      numberId: text.numberId,
      from: text.to,
      phoneNumber: text.from,
      keyword: keyword.word,
      status: 'active',
      createdAt: deps.clock.nowMs(),
      liftedAt: null,
      liftedKeyword: null,
    });
  } else if (keyword.kind === 'start') {
    if (!active) return null;
    await deps.optOuts.lift(active.id, keyword.word, deps.clock.nowMs());
  }
  return { kind: keyword.kind, text: replyText(keyword.kind, account.name, campaign) };
}

/**
 * contract §4: a send from `from` to a consumer who opted out of it → 422 `channel_unsupported`,
 * `details: {reason: "opted_out", keyword, at}`; thrown before anything is written or billed.
 */
export async function assertNotOptedOut(deps: Pick<OptOutDeps, 'optOuts'>, accountId: string, from: string, to: string): Promise<void> {
  const optOut = await deps.optOuts.findActive(accountId, from, to);
  if (!optOut) return;
  const at = iso(optOut.createdAt);
  throw new ServiceError(
    'channel_unsupported',
    `${to} opted out of ${from}: nothing was sent; only the consumer can lift it, by texting START to ${from}`,
    { reason: OPTED_OUT_REASON, keyword: optOut.keyword, at },
  );
}

/** GET /v1/opt-outs: the account's active opt-outs, newest first; `from` (the number) and `phoneNumber` (the consumer) narrow it. */
export async function listOptOuts(deps: Pick<OptOutDeps, 'optOuts'>, actor: Actor, filters: OptOutFilters, limit: number, cursor?: string): Promise<Page<OptOutRecord>> {
  return await deps.optOuts.list(actor.account.id, filters, limit, cursor);
}
