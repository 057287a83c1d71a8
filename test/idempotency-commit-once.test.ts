import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { connect } from 'node:net';
import { request } from 'undici';
import { startTestService, type TestService } from './helpers/service.js';
import { listAll } from './helpers/reads.js';

/**
 * A POST whose headers and all of its body but the last byte are sent now (the request has arrived:
 * the server starts it on its headers) and whose last byte is sent by `finish`, which answers the
 * response. Raw, on loopback, straight to one replica (the test's replica proxy reads a body whole
 * before passing it on).
 */
async function heldPost(baseUrl: string, path: string, key: string, headers: Record<string, string>, body: unknown) {
  const { hostname, port } = new URL(baseUrl);
  const payload = Buffer.from(JSON.stringify(body));
  const head = [`POST ${path} HTTP/1.1`, `host: ${hostname}:${port}`, `authorization: Bearer ${key}`, 'content-type: application/json', `content-length: ${payload.length}`, 'connection: close', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)].join('\r\n');
  const socket = connect(Number(port), hostname);
  const chunks: Buffer[] = [];
  socket.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    socket.on('end', resolve);
    socket.on('error', reject);
  });
  await new Promise<void>((resolve, reject) => socket.write(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), payload.subarray(0, -1)]), (err) => (err ? reject(err) : resolve())));
  return {
    async finish(): Promise<{ status: number; headers: Record<string, string>; body: any }> {
      socket.write(payload.subarray(-1));
      await ended;
      const text = Buffer.concat(chunks).toString('utf8');
      const [top, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = top!.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      return { status: Number(statusLine!.split(' ')[1]), headers, body: JSON.parse(rest.join('\r\n\r\n')) };
    },
  };
}

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

  /** How many of the account's messages (GET /v1/messages, every page) carry this body. */
  const storedWithBody = async (text: string) => (await listAll(svc, '/v1/messages')).filter((m) => m.body === text).length;
  /** A send straight to one replica (its own address, not the test's proxy). */
  const fetchAt = async (baseUrl: string, body: unknown, headers: Record<string, string>) => {
    const res = await request(`${baseUrl}/v1/messages`, { method: 'POST', headers: { authorization: `Bearer ${svc.bootstrap.testKey}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
    return { status: res.statusCode, headers: res.headers as Record<string, string>, body: (await res.body.json()) as any };
  };
  const send = (body: unknown, key: string) => svc.call('POST', '/v1/messages', { body, key: svc.bootstrap.testKey, headers: { 'idempotency-key': key } });

  it('twenty concurrent sends with one key create one message; the others are refused as in flight or replay it', async () => {
    const body = { from, to: '+14155550111', body: 'one of twenty' };
    const answers = await Promise.all(Array.from({ length: 20 }, () => send(body, 'same-key-20')));
    const originals = answers.filter((a) => a.status === 201 && a.headers['idempotent-replayed'] === undefined);
    expect(originals).toHaveLength(1);
    // contract §2: one that arrived while the first was in flight is a 409; one that arrived after
    // its answer replays it (which of them did depends on when each reached the service).
    for (const a of answers.filter((x) => x !== originals[0])) {
      if (a.status === 409) expect(a.body.error.code).toBe('conflict');
      else expect(a).toMatchObject({ status: 201, headers: { 'idempotent-replayed': 'true' }, body: { id: originals[0]!.body.id } });
    }
    expect(await storedWithBody('one of twenty')).toBe(1);
    // Once it is done, the same key and body replay it.
    const replay = await send(body, 'same-key-20');
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(originals[0]!.body.id);
  });

  // contract §2: "a request with the same key still in flight: 409 conflict". The second send has
  // arrived (its headers are in) before the first is answered; the first's answer then commits, and
  // the second, finishing, must be refused as in flight rather than given that answer. With
  // SVC_TEST_REPLICAS=2 the two go to different replicas, on one database.
  it('a send with the same key that arrived while the first was in flight is a 409, never a replay; a retry after replays', async () => {
    const body = { from, to: '+14155550115', body: 'one of two in flight' };
    const headers = { 'idempotency-key': 'two-in-flight' };
    const first = svc.replicas[0]!;
    const other = svc.replicas[svc.replicas.length - 1]!;
    const second = await heldPost(other.baseUrl, '/v1/messages', svc.bootstrap.testKey, headers, body);
    const answered = await fetchAt(first.baseUrl, body, headers);
    expect(answered.status).toBe(201);
    expect(answered.headers['idempotent-replayed']).toBeUndefined();
    const refused = await second.finish();
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.headers['idempotent-replayed']).toBeUndefined();
    expect(refused.body.error.code).toBe('conflict');
    expect(refused.body.error.message).toContain('in progress');
    expect(await storedWithBody('one of two in flight')).toBe(1);
    // A retry once both were answered gets the first's answer, at either replica.
    for (const at of [first, other]) {
      const retry = await fetchAt(at.baseUrl, body, headers);
      expect(retry).toMatchObject({ status: 201, body: { id: answered.body.id } });
      expect(retry.headers['idempotent-replayed']).toBe('true');
    }
    expect(await storedWithBody('one of two in flight')).toBe(1);
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

  // The send's write starts without waiting for its key's claim (one wait less on
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
