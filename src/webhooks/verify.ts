// The public webhook signature scheme (spec: Events, Delivery): the one signer the service uses and
// the verifier receivers (and `svc webhooks listen`) use. Only node:crypto here, so receivers can
// import `svc/webhooks` without pulling in the service.
//
// Header `X-Service-Signature: t=<unix seconds>,v1=<hex>`; v1 is lowercase hex HMAC-SHA256 keyed with
// the endpoint secret (the whole `whsec_...` string, as UTF-8) over `<t>.<raw request body>`.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'X-Service-Signature';
/** spec: Limits — signature timestamp 5 minutes. */
export const DEFAULT_TOLERANCE_SECS = 300;

export type RawBody = string | Buffer | Uint8Array;

const toBuffer = (b: RawBody): Buffer => (typeof b === 'string' ? Buffer.from(b, 'utf8') : Buffer.isBuffer(b) ? b : Buffer.from(b));

/** The lowercase hex HMAC-SHA256 of `<t>.<raw body>` keyed with the secret. */
export function computeWebhookSignature(rawBody: RawBody, secret: string, t: number): string {
  return createHmac('sha256', secret).update(`${t}.`, 'utf8').update(toBuffer(rawBody)).digest('hex');
}

/**
 * The `X-Service-Signature` header value for a body: `t=<t>,v1=<hex>`. `t` defaults to the real
 * wall-clock time in whole seconds (contract §10: never the service's advanced clock).
 */
export function signWebhookPayload(rawBody: RawBody, secret: string, t: number = Math.floor(Date.now() / 1000)): string {
  return `t=${t},v1=${computeWebhookSignature(rawBody, secret, t)}`;
}

export interface ParsedSignatureHeader {
  t: number;
  v1: string[];
}

/**
 * Parses `t=…,v1=…[,v1=…]`. Unknown schemes (`v0=`, a future `v2=`) are ignored, so a receiver keeps
 * working while signatures are added; a header without exactly one integer `t` or without any
 * well-formed `v1` is malformed (null).
 */
export function parseSignatureHeader(header: string | null | undefined): ParsedSignatureHeader | null {
  if (typeof header !== 'string' || header.length === 0 || header.length > 4096) return null;
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (t !== undefined || !/^\d{1,12}$/.test(value)) return null;
      t = Number(value);
    } else if (key === 'v1') {
      if (/^[0-9a-f]{64}$/i.test(value)) v1.push(value.toLowerCase());
    }
  }
  if (t === undefined || v1.length === 0) return null;
  return { t, v1 };
}

export interface VerifyOptions {
  /** Oldest accepted timestamp, in seconds (default 300, spec: Limits). Timestamps more than this far in the future are refused too (clock skew). */
  toleranceSecs?: number;
  /** Current time in milliseconds since the epoch (default Date.now). */
  now?: () => number;
}

export type VerifyResult =
  | { ok: true; timestamp: number }
  | { ok: false; reason: 'malformed_header' | 'timestamp_out_of_tolerance' | 'signature_mismatch' };

/** A check of a signature over a body read piece by piece (a stream), never held whole. */
export interface WebhookSignatureCheck {
  /** The next piece of the raw body, in order. */
  update(piece: RawBody): void;
  /** Once every piece is in: the verdict. */
  result(): VerifyResult;
}

/**
 * Like verifyWebhookSignatureDetailed, for a body that arrives in pieces: the header is checked (and
 * its time) first, then each piece goes into the MAC as it arrives.
 */
export function webhookSignatureCheck(header: string | null | undefined, secret: string, opts: VerifyOptions = {}): WebhookSignatureCheck {
  const parsed = parseSignatureHeader(header);
  const tolerance = opts.toleranceSecs ?? DEFAULT_TOLERANCE_SECS;
  const nowSecs = Math.floor((opts.now ?? Date.now)() / 1000);
  const refusal: VerifyResult | undefined = !parsed
    ? { ok: false, reason: 'malformed_header' }
    : Math.abs(nowSecs - parsed.t) > tolerance
      ? { ok: false, reason: 'timestamp_out_of_tolerance' }
      : undefined;
  const mac = parsed && !refusal ? createHmac('sha256', secret).update(`${parsed.t}.`, 'utf8') : undefined;
  return {
    update: (piece) => void mac?.update(toBuffer(piece)),
    result: () => {
      if (refusal || !parsed || !mac) return refusal ?? { ok: false, reason: 'malformed_header' };
      const expected = mac.digest();
      // Every candidate is compared (no early exit), each in constant time.
      let match = false;
      for (const candidate of parsed.v1) {
        if (timingSafeEqual(expected, Buffer.from(candidate, 'hex'))) match = true;
      }
      return match ? { ok: true, timestamp: parsed.t } : { ok: false, reason: 'signature_mismatch' };
    },
  };
}

/** Like verifyWebhookSignature, but says why a signature was refused. */
export function verifyWebhookSignatureDetailed(rawBody: RawBody, header: string | null | undefined, secret: string, opts: VerifyOptions = {}): VerifyResult {
  const check = webhookSignatureCheck(header, secret, opts);
  check.update(rawBody);
  return check.result();
}

/**
 * True when `header` carries a v1 signature of `rawBody` by `secret` whose timestamp is within the
 * tolerance of now. Verify over the raw request body, before any JSON parsing.
 */
export function verifyWebhookSignature(rawBody: RawBody, header: string | null | undefined, secret: string, opts: VerifyOptions = {}): boolean {
  return verifyWebhookSignatureDetailed(rawBody, header, secret, opts).ok;
}
