import { describe, expect, it } from 'vitest';
import { freshFixtureEachTest, serviceErrorOf, type DomainFixture } from '../../../../test/helpers/domain-fixture.js';
import { receiveInbound, sendMessage } from '../messages.js';
import { listOptOuts } from './opt-outs.js';
import { keywordOf, replyText } from './keywords.js';
import type { Actor } from '../actor.js';
import { InboundMessageBody, MESSAGE_BODY_MAX, SendMessageBody, TEST_SENDER } from '../../../api/schemas/messages.js';
import { HELP_WORDS, START_WORDS, STOP_WORDS } from '../../../api/values/opt-outs.js';
import type { MessageRecord } from '../../storage/messages-repo.js';

// contract §4, "Opt-out keywords": an inbound stop word opts the consumer out of that one number,
// with one unbilled reply; sends from it to them are refused; a start word lifts it; help is answered.

const CONSUMER = '+14155550123';
const OTHER_CONSUMER = '+14155550124';

let fx: DomainFixture;
freshFixtureEachTest((f) => (fx = f));

const inbound = async (actor: Actor, to: string, body: string, from = CONSUMER) => await fx.deps.uow.write((tx) => receiveInbound(tx, actor, InboundMessageBody.parse({ from, to, body })));
const send = async (actor: Actor, from: string, to = CONSUMER, body = 'hello') => await fx.deps.uow.write((tx) => sendMessage(tx, actor, SendMessageBody.parse({ from, to, body })));
const messages = async (account = fx.agency): Promise<MessageRecord[]> => (await fx.deps.uow.read(async (tx) => await tx.messages.list(account.id, {}, 100))).data;
/** What the number sent the consumer: the replies (newest first). */
const repliesTo = async (consumer: string, account = fx.agency) => (await messages(account)).filter((m) => m.direction === 'outbound' && m.to === consumer);
const optOuts = async (actor: Actor = fx.actor(), filters = {}) => (await fx.deps.uow.write((tx) => listOptOuts(tx, actor, filters, 100))).data;
const smsCharges = async (account = fx.agency) => (await fx.charges(account)).filter((c) => c.category === 'sms' || c.category === 'mms');

describe('keywordOf (pure)', () => {
  it.each([...STOP_WORDS])('%s is a stop word, trimmed and compared without case', (word) => {
    for (const body of [word, word.toLowerCase(), `  ${word[0]}${word.slice(1).toLowerCase()}\n`, `\t${word} `]) {
      expect(keywordOf(body)).toEqual({ kind: 'stop', word });
    }
  });

  it('start and help words', () => {
    for (const w of START_WORDS) expect(keywordOf(` ${w.toLowerCase()} `)).toEqual({ kind: 'start', word: w });
    for (const w of HELP_WORDS) expect(keywordOf(w.toLowerCase())).toEqual({ kind: 'help', word: w });
  });

  it('a body that merely contains a word is ordinary', () => {
    for (const body of ['stop please', 'Please STOP', 'STOP!', 'S T O P', 'stopping', 'help me', 'yes please', '']) {
      expect(keywordOf(body), body).toBeNull();
    }
  });

  it("a campaign's keywords, comma separated, add to each list; a stop word wins over the others", () => {
    const campaign = { optoutKeywords: ' Arret, halt ,,', optinKeywords: 'resume', helpKeywords: 'aide,STOP' };
    expect(keywordOf('ARRET', campaign)).toEqual({ kind: 'stop', word: 'ARRET' });
    expect(keywordOf(' halt ', campaign)).toEqual({ kind: 'stop', word: 'HALT' });
    expect(keywordOf('Resume', campaign)).toEqual({ kind: 'start', word: 'RESUME' });
    expect(keywordOf('aide', campaign)).toEqual({ kind: 'help', word: 'AIDE' });
    expect(keywordOf('stop', campaign)).toEqual({ kind: 'stop', word: 'STOP' });
    // Blank entries are no keyword: an empty body stays ordinary.
    expect(keywordOf(' ', campaign)).toBeNull();
    expect(keywordOf('arret')).toBeNull();
  });

  it("the replies: the campaign's own message, else a default naming the account", () => {
    expect(replyText('stop', 'Acme', { optoutMessage: 'Bye from Acme' })).toBe('Bye from Acme');
    expect(replyText('stop', 'Acme', { optoutMessage: '  ' })).toContain('Acme');
    expect(replyText('start', 'Acme')).toContain('Acme');
    const help = replyText('help', 'Acme');
    expect(help).toContain('Acme');
    expect(help).toContain('STOP');
  });

  it("a campaign message longer than a message body is cut to the body's limit, never inside a character", () => {
    expect(replyText('help', 'Acme', { helpMessage: 'a'.repeat(MESSAGE_BODY_MAX + 400) })).toBe('a'.repeat(MESSAGE_BODY_MAX));
    const emoji = `${'a'.repeat(MESSAGE_BODY_MAX - 1)}😀 and more`;
    expect(replyText('stop', 'Acme', { optoutMessage: emoji })).toBe('a'.repeat(MESSAGE_BODY_MAX - 1));
  });
});

describe('an inbound stop word (receiveInbound)', () => {
  it.each([...STOP_WORDS])('%s (lower case, padded) opts the consumer out of that number, with one unbilled reply', async (word) => {
    const n = await fx.liveNumber();
    const received = await inbound(fx.actor('live'), n.phoneNumber, `  ${word.toLowerCase()} `);
    // The inbound message is an ordinary one: stored and announced.
    expect(await fx.deps.uow.read(async (tx) => await tx.messages.getById(received.id))).toMatchObject({ direction: 'inbound', status: 'received' });
    expect((await fx.events(fx.agency, 'message.received')).map((e) => e.body.messageId)).toEqual([received.id]);

    expect(await optOuts()).toEqual([
      expect.objectContaining({ numberId: n.id, from: n.phoneNumber, phoneNumber: CONSUMER, keyword: word, createdAt: fx.clock.nowMs(), status: 'active' }),
    ]);
    const [reply, ...more] = await repliesTo(CONSUMER);
    expect(more).toEqual([]);
    expect(reply).toMatchObject({ from: n.phoneNumber, to: CONSUMER, numberId: n.id, channel: 'sms', test: false, status: 'queued' });
    // The number's campaign has its own optoutMessage (GOOD_CAMPAIGN).
    expect(reply!.body).toBe((await fx.deps.uow.read(async (tx) => await tx.campaigns.get(fx.agency.id, n.campaignId!)))!.content.optoutMessage);

    // A live reply runs the carrier's course like any message, with its events, and is never billed.
    await fx.advance(2_000);
    expect((await fx.deps.uow.read(async (tx) => await tx.messages.getById(reply!.id)))!.status).toBe('delivered');
    expect((await fx.events(fx.agency, 'message.status')).map((e) => [e.body.messageId, e.body.status])).toEqual([
      [reply!.id, 'sent'],
      [reply!.id, 'delivered'],
    ]);
    expect(await smsCharges()).toEqual([]);
    expect(await fx.deps.uow.read(async (tx) => await tx.holds.openTotal(fx.agency.id))).toBe(0);
  });

  it('a body that merely contains a stop word is an ordinary message', async () => {
    const n = await fx.liveNumber();
    await inbound(fx.actor('live'), n.phoneNumber, 'stop please');
    await inbound(fx.actor('live'), n.phoneNumber, 'STOP sending me these');
    expect(await optOuts()).toEqual([]);
    expect(await repliesTo(CONSUMER)).toEqual([]);
    expect(await fx.events(fx.agency, 'message.received')).toHaveLength(2);
  });

  it('with no campaign the reply is a default naming the account', async () => {
    const n = await fx.buyNumber();
    await inbound(fx.actor('test'), n.phoneNumber, 'STOP');
    const [reply] = await repliesTo(CONSUMER);
    expect(reply!.body).toBe(replyText('stop', fx.agency.name));
    expect(reply!.body).toContain(fx.agency.name);
  });

  it("the campaign's optoutKeywords, optinKeywords and helpKeywords count, with its messages", async () => {
    const n = await fx.liveNumber();
    const campaign = (await fx.deps.uow.read(async (tx) => await tx.campaigns.get(fx.agency.id, n.campaignId!)))!;
    await fx.deps.uow.write(async (tx) => await tx.campaigns.save({
      ...campaign,
      content: { ...campaign.content, optoutKeywords: 'ARRET, Halt', optoutMessage: 'Bye.', optinKeywords: 'resume', optinMessage: 'Welcome back.', helpKeywords: 'aide', helpMessage: 'Call us.' },
    }));
    await inbound(fx.actor('live'), n.phoneNumber, 'halt');
    expect((await optOuts()).map((o) => o.keyword)).toEqual(['HALT']);
    await inbound(fx.actor('live'), n.phoneNumber, 'Aide');
    await inbound(fx.actor('live'), n.phoneNumber, 'RESUME');
    expect(await optOuts()).toEqual([]);
    expect((await repliesTo(CONSUMER)).map((m) => m.body).reverse()).toEqual(['Bye.', 'Call us.', 'Welcome back.']);
  });

  it('a second stop word while opted out records nothing more and is not answered again', async () => {
    const n = await fx.liveNumber();
    await inbound(fx.actor('live'), n.phoneNumber, 'STOP');
    const first = await optOuts();
    await fx.advance(1_000);
    await inbound(fx.actor('live'), n.phoneNumber, 'quit');
    expect(await optOuts()).toEqual(first);
    expect(await repliesTo(CONSUMER)).toHaveLength(1);
  });
});

describe('a send to a consumer who opted out (sendMessage)', () => {
  it('is refused 422 channel_unsupported with {reason, keyword, at}; nothing is recorded, announced or billed', async () => {
    const n = await fx.liveNumber();
    await inbound(fx.actor('live'), n.phoneNumber, 'Unsubscribe');
    const at = new Date(fx.clock.nowMs()).toISOString();
    const before = { messages: (await messages()).length, events: (await fx.events(fx.agency)).length, charges: (await fx.charges(fx.agency)).length, jobs: jobCount() };

    const err = await serviceErrorOf(async () => await send(fx.actor('live'), n.phoneNumber));
    expect(err.code).toBe('channel_unsupported');
    expect(err.status).toBe(422);
    expect(err.details).toEqual({ reason: 'opted_out', keyword: 'UNSUBSCRIBE', at });
    expect(err.message).toContain(CONSUMER);
    expect(err.message).toContain(n.phoneNumber);

    expect({ messages: (await messages()).length, events: (await fx.events(fx.agency)).length, charges: (await fx.charges(fx.agency)).length, jobs: jobCount() }).toEqual(before);
    expect(await fx.deps.uow.read(async (tx) => await tx.holds.openTotal(fx.agency.id))).toBe(0);
  });

  it("other numbers of the account, and other consumers, are not affected", async () => {
    const stopped = await fx.liveNumber();
    const other = await fx.liveNumber();
    await inbound(fx.actor('live'), stopped.phoneNumber, 'STOP');
    expect((await send(fx.actor('live'), other.phoneNumber)).status).toBe('queued');
    expect((await send(fx.actor('live'), stopped.phoneNumber, OTHER_CONSUMER)).status).toBe('queued');
    expect((await serviceErrorOf(async () => await send(fx.actor('live'), stopped.phoneNumber))).code).toBe('channel_unsupported');
  });

  it('a start word lifts it (answered once), and the number may send again; START with no opt-out is ordinary', async () => {
    const n = await fx.buyNumber();
    await inbound(fx.actor('test'), n.phoneNumber, 'START');
    expect(await repliesTo(CONSUMER)).toEqual([]);

    await inbound(fx.actor('test'), n.phoneNumber, 'STOP');
    expect((await serviceErrorOf(async () => await send(fx.actor('test'), n.phoneNumber))).code).toBe('channel_unsupported');
    await inbound(fx.actor('test'), n.phoneNumber, ' unstop ');
    expect(await optOuts()).toEqual([]);
    const [optIn] = await repliesTo(CONSUMER);
    expect(optIn!.body).toBe(replyText('start', fx.agency.name));
    expect((await send(fx.actor('test'), n.phoneNumber)).status).toBe('queued');
    // The history stays in storage: the lifted row keeps when and with which word.
    const lifted = fx.db.prepare('SELECT status, keyword, lifted_keyword FROM opt_outs').all();
    expect(lifted).toEqual([{ status: 'lifted', keyword: 'STOP', lifted_keyword: 'UNSTOP' }]);

    // Opting out again makes a new record.
    await inbound(fx.actor('test'), n.phoneNumber, 'end');
    expect((await optOuts()).map((o) => o.keyword)).toEqual(['END']);
  });

  it('a help word is answered, opted out or not, and opts no one out', async () => {
    const n = await fx.buyNumber();
    await inbound(fx.actor('test'), n.phoneNumber, 'help');
    expect(await optOuts()).toEqual([]);
    await inbound(fx.actor('test'), n.phoneNumber, 'STOP');
    await inbound(fx.actor('test'), n.phoneNumber, 'INFO');
    const bodies = (await repliesTo(CONSUMER)).map((m) => m.body).reverse();
    const help = replyText('help', fx.agency.name);
    expect(bodies).toEqual([help, replyText('stop', fx.agency.name), help]);
    expect(help).toContain(fx.agency.name);
    expect(help).toContain('STOP');
    expect(await optOuts()).toHaveLength(1);
  });

  it('test keys follow the same rules: the reply is a stubbed test message, the send is refused', async () => {
    const n = await fx.buyNumber();
    await inbound(fx.actor('test'), n.phoneNumber, 'Stop');
    const [reply] = await repliesTo(CONSUMER);
    // A test message plays its whole course at once, with its events, and moves no money.
    expect(reply).toMatchObject({ test: true, status: 'delivered', from: n.phoneNumber });
    expect((await fx.events(fx.agency, 'message.status')).map((e) => e.body.status)).toEqual(['sent', 'delivered']);
    expect((await serviceErrorOf(async () => await send(fx.actor('test'), n.phoneNumber))).details).toMatchObject({ reason: 'opted_out', keyword: 'STOP' });
    // A live key is refused as well: the opt-out is the consumer's, not the key's.
    const live = await fx.liveNumber();
    await inbound(fx.actor('test'), live.phoneNumber, 'stop');
    expect((await serviceErrorOf(async () => await send(fx.actor('live'), live.phoneNumber))).code).toBe('channel_unsupported');
  });

  it('the test sender +15005550006 follows the same rules', async () => {
    await inbound(fx.actor('live'), TEST_SENDER, 'STOP');
    expect(await optOuts()).toEqual([expect.objectContaining({ numberId: null, from: TEST_SENDER, phoneNumber: CONSUMER, keyword: 'STOP' })]);
    const [reply] = await repliesTo(CONSUMER);
    expect(reply).toMatchObject({ from: TEST_SENDER, numberId: null, test: true, status: 'delivered' });
    for (const mode of ['live', 'test'] as const) {
      expect((await serviceErrorOf(async () => await send(fx.actor(mode), TEST_SENDER))).details).toMatchObject({ reason: 'opted_out', keyword: 'STOP' });
    }
    expect((await send(fx.actor('live'), TEST_SENDER, OTHER_CONSUMER)).status).toBe('queued');
    expect(await smsCharges()).toEqual([]);
  });

  it("an opt-out is the account's own: another account's sends and lists are untouched", async () => {
    const mine = await fx.buyNumber();
    await inbound(fx.actor('test'), mine.phoneNumber, 'STOP');
    await inbound(fx.actor('test', fx.sub), TEST_SENDER, 'STOP', OTHER_CONSUMER);
    expect(await optOuts(fx.actor('live', fx.stranger))).toEqual([]);
    expect((await optOuts(fx.actor('live', fx.sub))).map((o) => o.phoneNumber)).toEqual([OTHER_CONSUMER]);
    expect((await optOuts()).map((o) => o.phoneNumber)).toEqual([CONSUMER]);
    // The agency's test sender is not opted out by the sub-account's consumer.
    expect((await send(fx.actor('test'), TEST_SENDER, OTHER_CONSUMER)).status).toBe('queued');
  });
});

describe('listOptOuts', () => {
  it('newest first; `from` narrows to a number, `phoneNumber` to a consumer', async () => {
    const a = await fx.buyNumber();
    const b = await fx.buyNumber({ areaCode: '212' });
    await inbound(fx.actor('test'), a.phoneNumber, 'STOP', CONSUMER);
    await inbound(fx.actor('test'), b.phoneNumber, 'STOP', CONSUMER);
    await inbound(fx.actor('test'), a.phoneNumber, 'cancel', OTHER_CONSUMER);
    const pairs = (list: Awaited<ReturnType<typeof optOuts>>) => list.map((o) => [o.from, o.phoneNumber]);
    expect(pairs(await optOuts())).toEqual([
      [a.phoneNumber, OTHER_CONSUMER],
      [b.phoneNumber, CONSUMER],
      [a.phoneNumber, CONSUMER],
    ]);
    expect(pairs(await optOuts(fx.actor(), { from: a.phoneNumber }))).toEqual([
      [a.phoneNumber, OTHER_CONSUMER],
      [a.phoneNumber, CONSUMER],
    ]);
    expect(pairs(await optOuts(fx.actor(), { phoneNumber: CONSUMER }))).toEqual([
      [b.phoneNumber, CONSUMER],
      [a.phoneNumber, CONSUMER],
    ]);
    expect(pairs(await optOuts(fx.actor(), { from: b.phoneNumber, phoneNumber: OTHER_CONSUMER }))).toEqual([]);
  });
});

function jobCount(): number {
  return (fx.db.prepare('SELECT COUNT(*) AS n FROM jobs').get() as { n: number }).n;
}
