import { outsideFirst } from './outside-first.js';
import type { DomainDeps, DomainScheduler, DomainEvents } from './deps.js';
import type { Clock } from '../clock.js';
import { iso } from '../clock.js';
import type { UnitOfWork } from './deps.js';
import type { Actor } from './actor.js';
import type { NumbersRepo, NumberRecord } from '../storage/numbers-repo.js';
import type { MessagesRepo, MessageRecord, MessageFilters } from '../storage/messages-repo.js';
import { reserve, settle, release, type BillingDeps } from './billing/charging.js';
import type { CampaignsRepo } from '../storage/campaigns-repo.js';
import type { OptOutsRepo } from '../storage/opt-outs-repo.js';
import { answerKeyword, assertNotOptedOut } from './opt-outs/opt-outs.js';
import type { Carrier, CarrierProgress, CarrierStep } from '../world/carrier.js';
import { testStubCourse } from '../world/carrier.js';
import { countSegments } from './segments.js';
import { PRICES } from '../../api/values/prices.js';
import { newId } from '../ids.js';
import { ServiceError, conflict, notFound, validationError } from '../errors.js';
import { TEST_SENDER, type InboundMessageBody, type Media, type MessageStatus, type SendMessageBody } from '../../api/schemas/messages.js';
import type { Page } from '../../api/schemas/page.js';

export interface MessagingDeps extends BillingDeps {
  uow: UnitOfWork;
  clock: Clock;
  scheduler: DomainScheduler;
  events: DomainEvents;
  numbers: NumbersRepo;
  messages: MessagesRepo;
  campaigns: CampaignsRepo;
  optOuts: OptOutsRepo;
  carrier: Carrier;
}


export const JOB_SUBMIT = 'message.submit';
export const JOB_PROGRESS = 'message.progress';

// spec: Message status — the only moves a carrier report may make.
const NEXT: Record<MessageStatus, readonly MessageStatus[]> = {
  queued: ['sending'],
  sending: ['sent'],
  sent: ['delivered', 'failed', 'undelivered'],
  delivered: [],
  failed: [],
  undelivered: [],
  received: [],
};
// spec: Event catalog — message.status is emitted for these.
const REPORTED: ReadonlySet<MessageStatus> = new Set(['sent', 'delivered', 'failed', 'undelivered']);


// --- media -----------------------------------------------------------------------------------------

const CONTENT_TYPES: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', bmp: 'image/bmp',
  heic: 'image/heic', svg: 'image/svg+xml', tif: 'image/tiff', tiff: 'image/tiff',
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', '3gp': 'video/3gpp', '3g2': 'video/3gpp2', webm: 'video/webm',
  mp3: 'audio/mpeg', m4a: 'audio/mp4', aac: 'audio/aac', wav: 'audio/wav', ogg: 'audio/ogg', amr: 'audio/amr',
  vcf: 'text/vcard', ics: 'text/calendar', txt: 'text/plain', csv: 'text/csv', pdf: 'application/pdf',
};

/** spec: Message `media` — `{url, contentType, filename}`: the type from the extension, the name from the path. */
export function mediaFromUrls(urls: readonly string[]): Media[] {
  return urls.map((url, i) => {
    let last = '';
    try {
      last = new URL(url).pathname.split('/').filter(Boolean).pop() ?? '';
      last = decodeURIComponent(last);
    } catch {
      // A malformed escape keeps the raw segment.
    }
    const filename = last || `media-${i + 1}`;
    const dot = filename.lastIndexOf('.');
    const ext = dot > 0 ? filename.slice(dot + 1).toLowerCase() : '';
    return { url, contentType: CONTENT_TYPES[ext] ?? 'application/octet-stream', filename };
  });
}

// --- send ------------------------------------------------------------------------------------------

async function senderNumber(deps: MessagingDeps, accountId: string, from: string): Promise<NumberRecord> {
  const number = await deps.numbers.findByPhone(accountId, from);
  // contract §4: `from` not owned by the account (and not the test sender) → validation_error on from.
  if (!number) throw validationError(['body', 'from'], `${from} is not a number of this account; send from one of your numbers or the test sender ${TEST_SENDER}`);
  // contract §4: a released number → conflict (the account knows it; it no longer owns it).
  if (number.status === 'released') throw conflict(`${from} was released and can no longer send`);
  return number;
}

function assertChannel(number: NumberRecord, channel: 'sms' | 'mms', direction: 'send' | 'receive'): void {
  // contract §4: a number without the capability (sms, or mms for media) → channel_unsupported.
  if (!number.capabilities[channel]) {
    throw new ServiceError(
      'channel_unsupported',
      `${number.phoneNumber} cannot ${direction} ${channel.toUpperCase()}: the number has no ${channel} capability`,
      [{ path: ['body', direction === 'send' ? 'from' : 'to'], message: `no ${channel} capability` }],
    );
  }
}

async function assertApprovedCampaign(deps: MessagingDeps, number: NumberRecord): Promise<void> {
  // spec: Send body — a live send from a local number needs an approved 10DLC campaign. Toll-free
  // numbers are not registered under 10DLC.
  if (number.type !== 'local') return;
  const campaign = number.campaignId ? await deps.campaigns.get(number.accountId, number.campaignId) : undefined;
  if (!campaign || campaign.status !== 'approved') {
    // The detail names the field at fault, so a client can say how to fix it in its own terms.
    throw new ServiceError('conflict', `${number.phoneNumber} has no approved 10DLC campaign: a live send from a local number needs one`, [
      { path: ['body', 'from'], message: 'assign an approved 10DLC campaign to this number, or send with a test key (test keys need no campaign)' },
    ]);
  }
}

/**
 * POST /v1/messages (contract §4). Call inside the request's transaction (commitOnce). Returns the
 * message as accepted (`queued`). A live send is handed to the carrier by a durable job due at once;
 * a test send (test key, or from +15005550006) never reaches a carrier: the stub plays its whole
 * course — sending, sent, then the destination's outcome — in this same transaction, so it is final
 * as soon as the request returns.
 */
export async function sendMessage(deps: MessagingDeps, actor: Actor, body: SendMessageBody): Promise<MessageRecord> {
  const now = deps.clock.nowMs();
  const channel = body.mediaUrls?.length ? 'mms' : 'sms';
  const fromTestSender = body.from === TEST_SENDER;
  // contract §4: a consumer who opted out of this number (the test sender included, test keys too)
  // is refused before anything is written or billed. Asked for now, with the sender's number (issue
  // 26: on PostgreSQL the two reads share one wait), and told in its turn below: a sender refused
  // is still reported before an opt-out.
  const notOptedOut = assertNotOptedOut(deps, actor.account.id, body.from, body.to);
  notOptedOut.catch(() => undefined);
  let number: NumberRecord | undefined;
  if (!fromTestSender) {
    number = await senderNumber(deps, actor.account.id, body.from);
    assertChannel(number, channel, 'send');
  }
  const test = actor.mode === 'test' || fromTestSender;
  if (!test && number) await assertApprovedCampaign(deps, number);
  await notOptedOut;

  const text = body.body ?? '';
  const message: MessageRecord = {
    id: newId('msg'),
    accountId: actor.account.id,
    numberId: number?.id ?? null,
    direction: 'outbound',
    from: body.from,
    to: body.to,
    counterparty: body.to,
    body: text,
    status: 'queued',
    segments: countSegments(text).segments,
    channel,
    media: body.mediaUrls?.length ? mediaFromUrls(body.mediaUrls) : null,
    reason: null,
    test,
    providerMessageId: null,
    createdAt: now,
    updatedAt: now,
  };
  // contract §11: a live send reserves its price as it is accepted (SMS: segments × price; MMS: per
  // message), before anything is written: a refusal (402 payment_required / budget_exceeded) leaves
  // no message, no event, no job and no idempotency record (it throws, and the caller's transaction
  // rolls back whole: no savepoint of its own, which cost a send two statements and a transaction's
  // objects). The hold is settled on `sent`. Test keys and the test sender move no money (spec:
  // Authentication).
  if (!test) await reserve(deps, { accountId: message.accountId, mode: actor.mode }, messagePrice(message));
  await acceptOutbound(deps, message);
  return message;
}

/**
 * Writes an accepted outbound message and starts its course; call inside a transaction. A test
 * message's course is played by the stub at once; a live one is handed to the carrier by a job due
 * now. Money is the caller's business: a send reserves its price first, a keyword reply reserves
 * nothing (and so is never charged: `sent` settles only an open hold).
 */
async function acceptOutbound(deps: MessagingDeps, message: MessageRecord): Promise<void> {
  if (message.test) {
    // The stub plays the whole course inside this transaction (contract §4), so the row is written
    // once, at the state the course ends in, and each reported step still emits its event (a
    // profile of test sends showed a read and an update per step: four writes to one row).
    let landed: { status: MessageStatus; reason: string | null } = { status: message.status, reason: null };
    const reported: Array<{ status: MessageStatus; reason: string | null }> = [];
    for (const step of testStubCourse(message.to)) {
      const next = carrierMove(landed.status, step.status, step.reason);
      if (!next) continue;
      landed = next;
      if (REPORTED.has(next.status)) reported.push(next);
    }
    // The message and one insert for the course's events, asked for at once (on
    // PostgreSQL they share one wait); either failing fails the transaction.
    await Promise.all([
      deps.messages.insert({ ...message, ...landed }),
      deps.events.emitAll(message.accountId, reported.map((r) => ({ type: 'message.status', fields: { messageId: message.id, status: r.status, reason: r.reason } }))),
    ]);
  } else {
    await deps.messages.insert(message);
    await deps.scheduler.schedule(JOB_SUBMIT, message.createdAt, { messageId: message.id });
    // A live message is `queued` with no event until the carrier moves it; an open thread
    // shows it from its commit all the same (a test message's `message.status` events do that).
    deps.events.touched(message.accountId, 'message', message.id, message.status);
  }
}

/** spec: Message status — where a carrier report moves a message in `from`, or null when the move is not legal. */
function carrierMove(from: MessageStatus, status: CarrierProgress, reason: string | null): { status: CarrierProgress; reason: string | null } | null {
  if (!NEXT[from].includes(status)) return null;
  return { status, reason: status === 'failed' || status === 'undelivered' ? reason : null };
}

/**
 * A carrier report: moves the message if the move is legal from its current state, records the
 * charge at `sent` (live only, contract §11) and emits `message.status`, all in one transaction.
 * Returns false for a report that does not apply (a replayed job, a late duplicate callback), which
 * changes nothing. A real carrier's status callback would call this.
 */
export async function applyCarrierReport(deps: MessagingDeps, messageId: string, status: CarrierProgress, reason: string | null): Promise<boolean> {
  return await deps.uow.write(async (tx) => {
    const message = await tx.messages.getById(messageId);
    const move = message && carrierMove(message.status, status, reason);
    if (!message || !move) return false;
    await tx.messages.setStatus(messageId, move.status, move.reason, tx.clock.nowMs());
    if (!message.test) await settleOrRelease(tx, message, move.status);
    if (REPORTED.has(move.status)) await tx.events.emit(message.accountId, 'message.status', { messageId, status: move.status, reason: move.reason });
    // A move no event reports (`sending`) still reaches an open thread.
    else tx.events.touched(message.accountId, 'message', messageId, move.status);
    return true;
  });
}

/** contract §11: what a live outbound message costs — each segment of an SMS, an MMS per message. */
function messagePrice(m: Pick<MessageRecord, 'id' | 'channel' | 'segments'>) {
  return m.channel === 'mms'
    ? { category: 'mms' as const, quantity: 1, amountCents: PRICES.mmsMessage, ref: m.id }
    : { category: 'sms' as const, quantity: m.segments, amountCents: m.segments * PRICES.smsSegment, ref: m.id };
}

/**
 * contract §11: the hold taken at accept becomes the charge on `sent`; a message that ends failed or
 * undelivered while its hold is still open (it never reached `sent`) gets the money back. The
 * carrier's course today passes every message through `sent`, so the release is the guard for a
 * course that gives up earlier. A message accepted before the wallet existed has no hold: nothing to
 * settle (its price was never reserved).
 */
async function settleOrRelease(deps: MessagingDeps, message: MessageRecord, status: CarrierProgress): Promise<void> {
  // settle and release do nothing when there is no open hold (a replayed report, a message accepted before the wallet existed).
  if (status === 'sent') {
    const price = messagePrice(message);
    await settle(deps, message.id, { quantity: price.quantity, amountCents: price.amountCents });
  } else if (status === 'failed' || status === 'undelivered') {
    await release(deps, message.id);
  }
}

interface SubmitPayload {
  messageId: string;
}
interface ProgressPayload {
  messageId: string;
  /** The remaining course; the first step is due now. */
  steps: CarrierStep[];
}

/** Durable jobs of the message lifecycle: a restart mid-flight finishes every message. */
export function registerMessageJobs(deps: DomainDeps): void {
  // Hands a queued live message to the carrier, then replays the carrier's course step by step.
  deps.scheduler.registerOutside(JOB_SUBMIT, async (payload: SubmitPayload) => {
    const before = await deps.uow.read(async (tx) => await tx.messages.getById(payload.messageId));
    if (!before || before.status !== 'queued' || before.providerMessageId) return;
    const accepted = await deps.carrier.submit({
      messageId: before.id,
      accountId: before.accountId,
      from: before.from,
      to: before.to,
      body: before.body,
      mediaUrls: (before.media ?? []).map((m) => m.url),
    });
    await deps.uow.write(async (tx) => {
      const current = await tx.messages.getById(payload.messageId);
      // A job replayed after a crash finds the provider id set and does nothing.
      if (!current || current.providerMessageId) return;
      const now = tx.clock.nowMs();
      await tx.messages.setProviderMessageId(current.id, accepted.providerMessageId, now);
      const [first] = accepted.course;
      if (first) await tx.scheduler.schedule(JOB_PROGRESS, now + first.afterMs, { messageId: current.id, steps: accepted.course } satisfies ProgressPayload);
    });
  }, 'messages handed to the carrier');

  // One step of the course: the move, its event and the next step's job commit together.
  deps.scheduler.register(JOB_PROGRESS, async (payload: ProgressPayload, _job, tx) => {
      const [step, ...rest] = payload.steps;
      if (!step) return;
      const moved = await applyCarrierReport(tx, payload.messageId, step.status, step.reason);
      const [next] = rest;
      if (moved && next) {
        await tx.scheduler.schedule(JOB_PROGRESS, tx.clock.nowMs() + next.afterMs, { messageId: payload.messageId, steps: rest } satisfies ProgressPayload);
      }
    }, 'carrier status reports');
}

// --- inbound ---------------------------------------------------------------------------------------

/**
 * contract §9: a consumer's text to one of the account's numbers → `received` and `message.received`.
 * The test sender (+15005550006) may be texted too, so a consumer can opt out of it (contract §4:
 * it follows the same keyword rules). contract §4: a keyword (stop, start, help) is answered from
 * the number, once, in the same transaction, by an ordinary outbound message that is never billed.
 */
export async function receiveInbound(deps: MessagingDeps, actor: Actor, body: InboundMessageBody): Promise<MessageRecord> {
  const { account } = actor;
  const toTestSender = body.to === TEST_SENDER;
  const channel = body.mediaUrls?.length ? 'mms' : 'sms';
  let number: NumberRecord | undefined;
  if (!toTestSender) {
    number = await deps.numbers.findByPhone(account.id, body.to);
    if (!number || number.status === 'released') throw validationError(['body', 'to'], `${body.to} is not a number of this account`);
    assertChannel(number, channel, 'receive');
  }
  const now = deps.clock.nowMs();
  const text = body.body ?? '';
  const message: MessageRecord = {
    id: newId('msg'),
    accountId: account.id,
    numberId: number?.id ?? null,
    direction: 'inbound',
    from: body.from,
    to: body.to,
    counterparty: body.from,
    body: text,
    status: 'received',
    segments: countSegments(text).segments,
    channel,
    media: body.mediaUrls?.length ? mediaFromUrls(body.mediaUrls) : null,
    reason: null,
    test: false,
    // The carrier's id for the inbound message, asked of it with no transaction open (outside-first.ts).
    providerMessageId: outsideFirst(deps, 'inbound-provider-id', async (d) => d.carrier.inboundProviderMessageId()),
    createdAt: now,
    updatedAt: now,
  };
  // contract §4: the keywords of the number's campaign count too, whatever the campaign's status.
  const campaign = number?.campaignId ? (await deps.campaigns.get(account.id, number.campaignId))?.content : undefined;
  await deps.uow.write(async (tx) => {
    await tx.messages.insert(message);
    await tx.events.emit(account.id, 'message.received', {
      messageId: message.id,
      from: message.from,
      to: message.to,
      body: message.body,
      receivedAt: iso(now),
      providerMessageId: message.providerMessageId,
    });
    const reply = await answerKeyword(tx, account, { numberId: message.numberId, to: message.to, from: message.from, body: message.body }, campaign);
    // A test key's inbound (or the test sender's) gets a stubbed reply, as its sends would be.
    if (reply) await acceptOutbound(tx, keywordReply(message, reply.text, actor.mode === 'test' || toTestSender));
  });
  return message;
}

/** contract §4: the number's answer to a keyword, an ordinary outbound SMS to the consumer. */
function keywordReply(inbound: MessageRecord, text: string, test: boolean): MessageRecord {
  return {
    ...inbound,
    id: newId('msg'),
    direction: 'outbound',
    from: inbound.to,
    to: inbound.from,
    counterparty: inbound.from,
    body: text,
    status: 'queued',
    segments: countSegments(text).segments,
    channel: 'sms',
    media: null,
    reason: null,
    test,
    providerMessageId: null,
  };
}

// --- reads -----------------------------------------------------------------------------------------

export async function getMessage(deps: Pick<MessagingDeps, 'messages'>, actor: Actor, id: string): Promise<MessageRecord> {
  const message = await deps.messages.get(actor.account.id, id);
  // spec: Authentication 6 — another account's message is not_found.
  if (!message) throw notFound('message');
  return message;
}

export async function listMessages(
  deps: Pick<MessagingDeps, 'messages'>,
  actor: Actor,
  filters: MessageFilters,
  limit: number,
  cursor?: string,
): Promise<Page<MessageRecord>> {
  return await deps.messages.list(actor.account.id, filters, limit, cursor);
}
