import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  computeWebhookSignature,
  parseSignatureHeader,
  signWebhookPayload,
  verifyWebhookSignature,
  verifyWebhookSignatureDetailed,
} from './verify.js';

const SECRET = 'whsec_testsecret0123456789';
const BODY = '{"id":"evt_1","type":"message.received","createdAt":"2026-01-01T00:00:00.000Z","body":"héllo"}';
const T = 1_767_225_600; // 2026-01-01T00:00:00Z
const at = (secs: number) => () => secs * 1000;

describe('signWebhookPayload', () => {
  it('is HMAC-SHA256 over "<t>.<raw body>" keyed by the secret, lowercase hex', () => {
    const expected = createHmac('sha256', SECRET).update(`${T}.${BODY}`).digest('hex');
    expect(signWebhookPayload(BODY, SECRET, T)).toBe(`t=${T},v1=${expected}`);
    expect(computeWebhookSignature(Buffer.from(BODY), SECRET, T)).toBe(expected);
  });

  it('defaults t to the wall clock in whole seconds', () => {
    const before = Math.floor(Date.now() / 1000);
    const header = signWebhookPayload(BODY, SECRET);
    const t = parseSignatureHeader(header)!.t;
    expect(t).toBeGreaterThanOrEqual(before);
    expect(t).toBeLessThanOrEqual(before + 2);
  });
});

describe('verifyWebhookSignature', () => {
  it('accepts a good signature, over a string or a Buffer', () => {
    const header = signWebhookPayload(BODY, SECRET, T);
    expect(verifyWebhookSignature(BODY, header, SECRET, { now: at(T + 10) })).toBe(true);
    expect(verifyWebhookSignature(Buffer.from(BODY, 'utf8'), header, SECRET, { now: at(T + 10) })).toBe(true);
  });

  it('refuses a signature by another secret, or over another body', () => {
    const header = signWebhookPayload(BODY, SECRET, T);
    expect(verifyWebhookSignatureDetailed(BODY, header, 'whsec_other', { now: at(T) })).toEqual({ ok: false, reason: 'signature_mismatch' });
    expect(verifyWebhookSignature(BODY.replace('héllo', 'hello'), header, SECRET, { now: at(T) })).toBe(false);
    // Re-serialized JSON (whitespace) is another body: verify over the raw bytes.
    expect(verifyWebhookSignature(JSON.stringify(JSON.parse(BODY), null, 1), header, SECRET, { now: at(T) })).toBe(false);
  });

  it('refuses a stale timestamp (older than 5 minutes by default) and a far-future one', () => {
    const header = signWebhookPayload(BODY, SECRET, T);
    expect(verifyWebhookSignature(BODY, header, SECRET, { now: at(T + 300) })).toBe(true);
    expect(verifyWebhookSignatureDetailed(BODY, header, SECRET, { now: at(T + 301) })).toEqual({ ok: false, reason: 'timestamp_out_of_tolerance' });
    expect(verifyWebhookSignature(BODY, header, SECRET, { now: at(T + 301), toleranceSecs: 600 })).toBe(true);
    expect(verifyWebhookSignature(BODY, header, SECRET, { now: at(T - 301) })).toBe(false);
  });

  it('refuses malformed headers', () => {
    const good = signWebhookPayload(BODY, SECRET, T);
    const v1 = good.split('v1=')[1]!;
    for (const header of ['', 'garbage', `v1=${v1}`, `t=${T}`, `t=abc,v1=${v1}`, `t=${T},v1=xyz`, `t=${T},t=${T},v1=${v1}`, `t=${T},=x,v1=${v1}`]) {
      expect(verifyWebhookSignatureDetailed(BODY, header, SECRET, { now: at(T) }), header).toEqual({ ok: false, reason: 'malformed_header' });
    }
    expect(verifyWebhookSignature(BODY, undefined, SECRET)).toBe(false);
  });

  it('accepts when any one of several v1 signatures matches (secret rollover) and ignores other schemes', () => {
    const right = computeWebhookSignature(BODY, SECRET, T);
    const wrong = computeWebhookSignature(BODY, 'whsec_old', T);
    expect(verifyWebhookSignature(BODY, `t=${T},v1=${wrong},v1=${right}`, SECRET, { now: at(T) })).toBe(true);
    expect(verifyWebhookSignature(BODY, `t=${T}, v0=abc, v1=${right}`, SECRET, { now: at(T) })).toBe(true);
    expect(verifyWebhookSignature(BODY, `t=${T},v1=${wrong},v1=${wrong}`, SECRET, { now: at(T) })).toBe(false);
    expect(parseSignatureHeader(`t=${T},v1=${wrong},v1=${right.toUpperCase()}`)).toEqual({ t: T, v1: [wrong, right] });
  });
});
