// conventions 9: every deadline reads the service's one clock, so tests advance it instead of sleeping.
// contract §1: `--clock manual` freezes time; advance moves it. With the real clock, advance is still
// allowed and shifts the service's time forward (an offset over the system clock).

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
}

export const iso = (ms: number): string => new Date(ms).toISOString();
