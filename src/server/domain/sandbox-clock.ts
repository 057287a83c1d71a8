import type { AdvanceReportLine, Scheduler } from '../scheduler.js';

export interface SandboxClockDeps {
  scheduler: Scheduler;
}

/**
 * contract §1: moves the service clock forward, running in time order everything that falls due.
 * Service time never goes back, not even across a restart: the scheduler saves the clock in the
 * transaction of each job it runs and once the target is reached (compose.ts `persistClock`), so a
 * crash mid-advance restarts at the time of the last committed job. The clock is the service's, not
 * an account's, so this takes no actor.
 */
export async function advanceClock(d: SandboxClockDeps, seconds: number): Promise<AdvanceReportLine[]> {
  return d.scheduler.advance(seconds);
}
