import { UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';

// `messages send`: its flags as commander (or `svc mcp`) give them, and the options the send works
// with. Imported by the definition's run function only.

/** The flags as given (`--wait-timeout` arrives as `timeout`, its new name). */
export interface SendFlags {
  to: string;
  from: string;
  body?: string;
  bodyFile?: string;
  media?: string[];
  idempotencyKey?: string;
  wait?: boolean;
  timeout?: string;
}

export interface SendOptions {
  to: string;
  from: string;
  /** `--body TEXT`. */
  body?: string;
  /** `--body-file FILE`, `-` for stdin. */
  bodyFile?: string;
  media: string[];
  idempotencyKey?: string;
  wait: boolean;
  /** `--timeout`, in seconds. */
  waitTimeoutSecs: number;
}

export const DEFAULT_SEND_TIMEOUT = '60s';

export function sendOptionsOf(f: SendFlags): SendOptions {
  return {
    to: f.to,
    from: f.from,
    body: f.body,
    bodyFile: f.bodyFile,
    media: f.media ?? [],
    idempotencyKey: f.idempotencyKey,
    wait: Boolean(f.wait),
    waitTimeoutSecs: waitTimeout(f.timeout ?? DEFAULT_SEND_TIMEOUT),
  };
}

function waitTimeout(text: string): number {
  try {
    return parseDuration(text, '--timeout');
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`--timeout: ${err.message}`, '--timeout');
    throw err;
  }
}
