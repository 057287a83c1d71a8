// conventions 9: every deadline reads the service's one clock, so tests advance it instead of sleeping.
// contract §1: `--clock manual` freezes time; advance moves it. With the real clock, advance is still
// allowed and shifts the service's time forward (an offset over the system clock).

/**
 * Real time, whatever the service clock says: what grants access or proves a message ages on it
 * (console links and sessions, a signature's `t`, contract §10), so moving the service clock neither
 * ends nor extends them. Milliseconds since the epoch; injected (`DomainDeps.wall`) so tests can move it.
 */
export type WallClock = () => number;
export const systemWallClock: WallClock = () => Date.now();
/**
 * The same real time in fractional milliseconds (microseconds apart, never back within a process:
 * the monotonic clock from the process's start on the wall clock), for an order finer than
 * `Date.now()`'s millisecond: an Idempotency-Key's answer and a duplicate's arrival (contract §2).
 * Processes on one host agree to microseconds; on different hosts, as well as their clocks do.
 */
export const preciseWallClock: WallClock = () => performance.timeOrigin + performance.now();

export interface Clock {
  readonly mode: 'system' | 'manual';
  /** Milliseconds since the epoch, service time. */
  nowMs(): number;
  now(): Date;
  /** Moves service time forward; never backward. */
  setTo(ms: number): void;
}

export class SystemClock implements Clock {
  readonly mode = 'system' as const;
  private offsetMs: number;
  constructor(
    offsetMs = 0,
    private readonly wall: () => number = Date.now,
  ) {
    this.offsetMs = offsetMs;
  }
  nowMs(): number {
    return this.wall() + this.offsetMs;
  }
  now(): Date {
    return new Date(this.nowMs());
  }
  setTo(ms: number): void {
    const delta = ms - this.nowMs();
    if (delta > 0) this.offsetMs += delta;
  }
  get offset(): number {
    return this.offsetMs;
  }
  /** Only for a reset to a saved point (svc/testing `reset()`): the one way service time goes back. */
  rewindTo(saved: SavedClock): void {
    this.offsetMs = saved.offsetMs;
  }
}

export class ManualClock implements Clock {
  readonly mode = 'manual' as const;
  constructor(private current: number) {}
  nowMs(): number {
    return this.current;
  }
  now(): Date {
    return new Date(this.current);
  }
  setTo(ms: number): void {
    if (ms > this.current) this.current = ms;
  }
  /** Only for a reset to a saved point (svc/testing `reset()`): the one way service time goes back. */
  rewindTo(saved: SavedClock): void {
    this.current = saved.nowMs;
  }
}

export const iso = (ms: number): string => new Date(ms).toISOString();
export const isoOrNull = (ms: number | null): string | null => (ms === null ? null : iso(ms));

/**
 * What is kept of the clock across restarts: service time must never go back, or deliveries and
 * carrier decisions scheduled after an advance would sit waiting in the future (contract §1).
 */
export interface SavedClock {
  mode: 'system' | 'manual';
  /** SystemClock: service time minus wall time. */
  offsetMs: number;
  /** ManualClock: the frozen time. */
  nowMs: number;
}

export function saveClock(clock: Clock): SavedClock {
  return {
    mode: clock.mode,
    offsetMs: clock instanceof SystemClock ? clock.offset : 0,
    nowMs: clock.nowMs(),
  };
}

/**
 * The clock for a start in `mode`, continuing from what a previous run saved: a system clock keeps
 * its offset (or a manual clock's lead over wall time); a manual clock resumes where it stood (or at
 * the previous system clock's time now).
 */
export function restoreClock(mode: 'system' | 'manual', saved: SavedClock | undefined, wall: () => number = Date.now): Clock {
  const now = wall();
  if (mode === 'system') {
    const offset = !saved ? 0 : saved.mode === 'system' ? saved.offsetMs : Math.max(0, saved.nowMs - now);
    return new SystemClock(Math.max(0, offset), wall);
  }
  const start = !saved ? now : saved.mode === 'manual' ? saved.nowMs : now + saved.offsetMs;
  return new ManualClock(start);
}

/**
 * Moves `clock` up to what another replica saved (the database holds the one service
 * clock; each replica keeps it in memory and follows it on notification). Never back: a replica
 * that is ahead stays ahead until its own save reaches the database.
 */
export function followSavedClock(clock: Clock, saved: SavedClock, wall: () => number = Date.now): void {
  clock.setTo(saved.mode === 'manual' ? saved.nowMs : wall() + saved.offsetMs);
}
