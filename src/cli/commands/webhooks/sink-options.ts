import { UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';
import { parseLimit } from '../../command-kit.js';
import { parseTypeList } from '../events/types-flag.js';
import { SINK_LIMITS } from '../../../api/values/sinks.js';
import type { DELIVERY_STATUSES } from '../../../api/values/webhooks.js';

// `svc webhooks sink …` and `svc webhooks replay`: flags as commander gives them, converted once and
// checked before anything is sent (contract §10, extensions).

export interface SinkCreateFlags {
  respond?: string;
  failFirst?: string;
  delay?: string;
  events?: string;
}

export interface SinkCreateOptions {
  status?: number;
  failFirst?: number;
  delayMs?: number;
  events?: string[];
}

function wholeNumber(raw: string, flag: string, min: number, max: number): number {
  const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${flag} must be a whole number from ${min} to ${max}`, flag);
  return n;
}

/** `--delay 2s`, `1500ms`, `1m`: a duration (a bare number is seconds), at most the sink's bound. */
export function delayMsOf(raw: string, flag = '--delay'): number {
  const text = raw.trim();
  const ms = /^\d+ms$/.test(text) ? Number(text.slice(0, -2)) : (() => {
    try {
      return parseDuration(text, flag) * 1000;
    } catch {
      throw new UsageError(`${flag}: "${raw}" is not a duration; use e.g. 500ms, 2s or 15s`, flag);
    }
  })();
  if (ms > SINK_LIMITS.maxDelayMs) throw new UsageError(`${flag} must be at most ${SINK_LIMITS.maxDelayMs / 1000}s`, flag);
  return ms;
}

export const sinkCreateOptionsOf = (o: SinkCreateFlags): SinkCreateOptions => ({
  status: o.respond === undefined ? undefined : wholeNumber(o.respond, '--respond', 200, 599),
  failFirst: o.failFirst === undefined ? undefined : wholeNumber(o.failFirst, '--fail-first', 0, SINK_LIMITS.maxFailFirst),
  delayMs: o.delay === undefined ? undefined : delayMsOf(o.delay),
  events: parseTypeList(o.events, '--events'),
});

export interface SinkRequestsFlags {
  id: string;
  follow?: boolean;
  limit?: string;
}

export interface SinkRequestsOptions {
  id: string;
  follow: boolean;
  limit: number;
}

export const DEFAULT_SINK_REQUESTS_LIMIT = 20;

export const sinkRequestsOptionsOf = (o: SinkRequestsFlags): SinkRequestsOptions => ({
  id: o.id,
  follow: Boolean(o.follow),
  limit: parseLimit(o.limit) ?? DEFAULT_SINK_REQUESTS_LIMIT,
});

export interface ReplayFlags {
  endpoint: string;
  since?: string;
  types?: string;
  status?: (typeof DELIVERY_STATUSES)[number];
}

export interface ReplayOptions {
  endpoint: string;
  /** Seconds back from the service clock, or a cursor (or an ISO time) passed as it is. */
  since?: { agoSecs: number } | { after: string };
  types?: string[];
  status?: (typeof DELIVERY_STATUSES)[number];
}

export function replayOptionsOf(o: ReplayFlags): ReplayOptions {
  let since: ReplayOptions['since'];
  if (o.since !== undefined) {
    const text = o.since.trim();
    if (text === '') throw new UsageError('--since: give a duration (1h, 30m) or a cursor of svc events list', '--since');
    // A duration counts back from the service clock; anything else is the feed's cursor (or a time).
    let agoSecs: number | undefined;
    try {
      agoSecs = parseDuration(text, '--since');
    } catch {
      agoSecs = undefined;
    }
    since = agoSecs === undefined ? { after: text } : { agoSecs };
  }
  return { endpoint: o.endpoint, since, types: parseTypeList(o.types, '--types'), status: o.status };
}
