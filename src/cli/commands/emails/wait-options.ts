import { durationFlag } from '../../duration.js';

// `svc emails wait`: the flags as commander gives them, and the options its run function works with.

export const DEFAULT_WAIT_TIMEOUT = '30s';
export const DEFAULT_WAIT_SINCE = '1m';

export interface WaitEmailFlags {
  to: string;
  subjectMatch?: string;
  timeout?: string;
  since?: string;
}

export interface WaitEmailOptions {
  to: string;
  /** `--subject-match RE`, as given. */
  subjectMatch?: string;
  /** `--timeout`, in seconds. */
  timeoutSecs: number;
  /** `--since`: seconds of service time back, or `all` (every message kept), or `now` (only new ones). */
  since: number | 'all' | 'now';
}

export function waitEmailOptionsOf(o: WaitEmailFlags): WaitEmailOptions {
  const since = (o.since ?? DEFAULT_WAIT_SINCE).trim().toLowerCase();
  return {
    to: o.to,
    subjectMatch: o.subjectMatch,
    timeoutSecs: durationFlag(o.timeout ?? DEFAULT_WAIT_TIMEOUT, '--timeout', 1),
    since: since === 'all' || since === 'now' ? since : durationFlag(o.since ?? DEFAULT_WAIT_SINCE, '--since', 0),
  };
}
