import { saveClock, type Clock } from '../clock.js';
import type { AdvanceReportLine, Scheduler } from '../scheduler.js';
import { CLOCK_STATE_KEY, type ServiceStateRepo } from '../storage/service-state-repo.js';

export interface SandboxClockDeps {
  clock: Clock;
  scheduler: Scheduler;
  serviceState: ServiceStateRepo;
}

/**
 * contract §1: moves the service clock forward, running in time order everything that falls due,
 * then saves it: service time never goes back, not even across a restart. The clock is the
 * service's, not an account's, so this takes no actor.
 */
export async function advanceClock(d: SandboxClockDeps, seconds: number): Promise<AdvanceReportLine[]> {
  const ran = await d.scheduler.advance(seconds);
  d.serviceState.set(CLOCK_STATE_KEY, saveClock(d.clock));
  return ran;
}
