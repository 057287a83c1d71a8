/**
 * Looks with `probe`, and between looks waits with `pause` (a long poll of the events feed for an
 * event; a short pause for a message or an email, whose arrival emits no event on a manual clock),
 * until found or `timeoutMs` has passed. The error lists what the last look saw, so a failing test
 * says what did arrive instead.
 */
export async function waitForCondition<T>(opts: {
  what: string;
  timeoutMs: number;
  probe: () => Promise<{ found?: T; seen?: string[] }>;
  /** Waits at most `leftMs` for something that could change the answer. */
  pause: (leftMs: number) => Promise<void>;
}): Promise<T> {
  const deadline = Date.now() + opts.timeoutMs;
  for (;;) {
    const { found, seen } = await opts.probe();
    if (found !== undefined) return found;
    const left = deadline - Date.now();
    if (left <= 0) {
      const list = seen?.length ? seen.map((s) => `  - ${s}`).join('\n') : '  (nothing)';
      throw new Error(`timed out after ${opts.timeoutMs} ms waiting for ${opts.what}; what did arrive:\n${list}`);
    }
    await opts.pause(left);
  }
}

/** A pause between looks at a list (loopback: cheap). */
export const POLL_MS = 25;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
