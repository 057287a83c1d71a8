import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';

// Sends are group-committed and hold no idempotency row before they run (COMMITS_ONCE): the key is
// checked again in the send's own transaction. These pin what that must not change (contract §2).
describe('idempotency on a send that commits once', () => {
  let svc: TestService;
  let from: string;
  beforeAll(async () => {
    svc = await startTestService();
    const found = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '415', capabilities: ['sms'], limit: 1 }, key: svc.bootstrap.testKey });
    const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber }, key: svc.bootstrap.testKey });
    expect(bought.status).toBe(201);
    from = bought.body.phoneNumber;
  });
  afterAll(async () => svc.stop());

  const storedWithBody = async (text: string) => (await svc.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM messages WHERE body = ?', text))!.n;
  const send = (body: unknown, key: string) => svc.call('POST', '/v1/messages', { body, key: svc.bootstrap.testKey, headers: { 'idempotency-key': key } });

  it('twenty concurrent sends with one key create one message; the other nineteen replay it', async () => {
    const body = { from, to: '+14155550111', body: 'one of twenty' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(body, 'same-key-20')));
    const originals = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    // The key is checked inside each send's own transaction: a duplicate in the same group commit
    // as the first, or a later one, finds its answer there and replays it (never a 409).
    for (const a of answers) {
      expect(a.status).toBe(201);
      expect(a.body.id).toBe(originals[0]!.body.id);
    }
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(19);
    expect(await storedWithBody('one of twenty')).toBe(1);
    // Once it is done, the same key and body replay it.
    const replay = await send(body, 'same-key-20');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(originals[0]!.body.id);
  });

  it('a refused send in a batch changes nothing and leaves its key free, while the sends beside it are stored', async () => {
    const good = Array.from({ length: 9 }, (_, i) => send({ from, to: '+14155550112', body: `beside ${i}` }, `batch-good-${i}`));
    const bad = send({ from: '+14155559999', to: '+14155550112', body: 'not my number' }, 'batch-bad');
    const [badAnswer, ...goodAnswers] = await Promise.all([bad, ...good]);
    expect(goodAnswers.map((a) => a.status)).toEqual(Array(9).fill(201));
    expect(badAnswer).toMatchObject({ status: 400, body: { error: { code: 'validation_error' } } });
    expect(await storedWithBody('not my number')).toBe(0);
    // The key was not spent on the refused request: a corrected retry with it is sent.
    const corrected = await send({ from, to: '+14155550112', body: 'now from my number' }, 'batch-bad');
    expect(corrected.status).toBe(201);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    expect(await storedWithBody('now from my number')).toBe(1);
  });

  it('the same key with another body is a 409 and sends nothing', async () => {
    expect((await send({ from, to: '+14155550113', body: 'first body' }, 'reuse-key')).status).toBe(201);
    const other = await send({ from, to: '+14155550113', body: 'second body' }, 'reuse-key');
    expect(other).toMatchObject({ status: 409, body: { error: { code: 'conflict' } } });
    expect(other.body.error.message).toContain('different request body');
    expect(await storedWithBody('second body')).toBe(0);
  });

  // The send's write starts without waiting for its key's claim (issue 26: one wait less on
  // PostgreSQL); an answer on record must still win over what the write does now.
  it('a key answered already replays its answer even when the send would now be refused', async () => {
    const found = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '415', capabilities: ['sms'], limit: 1 }, key: svc.bootstrap.testKey });
    const own = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber }, key: svc.bootstrap.testKey });
    const body = { from: own.body.phoneNumber, to: '+14155550114', body: 'sent before the release' };
    const first = await send(body, 'replay-after-release');
    expect(first.status).toBe(201);
    const released = await svc.call('POST', `/v1/numbers/${own.body.id}/release`, { key: svc.bootstrap.testKey });
    expect(released.status).toBe(200);
    // Sent now without the key, it is refused: the number is released.
    expect((await svc.call('POST', '/v1/messages', { body, key: svc.bootstrap.testKey })).body.error.code).toBe('conflict');
    const replay = await send(body, 'replay-after-release');
    expect(replay).toMatchObject({ status: 201, body: { id: first.body.id } });
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await storedWithBody('sent before the release')).toBe(1);
  });
});
