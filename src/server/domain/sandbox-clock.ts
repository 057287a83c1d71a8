import type { AdvanceReportLine, Scheduler } from '../scheduler.js';
import type { Store } from '../storage/store.js';

export interface SandboxClockDeps {
  scheduler: Scheduler;
  store: Pick<Store, 'peers'>;
}

/**
 * contract §1: moves the service clock forward, running in time order everything that falls due.
 * Service time never goes back, not even across a restart: the scheduler saves the clock in the
 * transaction of each job it runs and once the target is reached (compose.ts `persistClock`), so a
 * crash mid-advance restarts at the time of the last committed job. The clock is the service's, not
 * an account's, so this takes no actor.
 */
export async function advanceClock(d: SandboxClockDeps, seconds: number): Promise<AdvanceReportLine[]> {
  const ran = await d.scheduler.advance(seconds);
  // One clock, in the database: each replica keeps it in memory and follows a save when
  // notified; the answer waits until every other replica has, so the caller's next request reads
  // the new time on whichever replica it lands (not the old one for the moment a notice takes).
  await d.store.peers.sync();
  return ran;
}
