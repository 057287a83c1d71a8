import { z } from 'zod';
import { Timestamp } from './common.js';
import { CLOCK_MODES } from '../values/sandbox.js';

// contract §1: the sandbox clock.
export const ClockSchema = z.object({ now: Timestamp, mode: z.enum(CLOCK_MODES) }).meta({ id: 'Clock' });
export type ClockState = z.infer<typeof ClockSchema>;

// Up to ten years in one call: enough for any schedule in the spec (the longest is 7 days).
// Our extension (contract §1 shows no body for the advance's answer): the clock, and what the
// advance ran, per kind of scheduled work, so `svc clock advance` can say it.
export const AdvanceReportLineSchema = z
  .object({
    kind: z.string().describe('the kind of scheduled work (a job kind of the service)'),
    label: z.string().describe('what its items are, for people'),
    jobs: z.number().int().min(1),
    items: z.number().int().min(0).describe('the work those jobs started (delivery attempts for webhook jobs; otherwise one per job)'),
  })
  .meta({ id: 'AdvanceReportLine' });
export const AdvancedClockSchema = ClockSchema.extend({ ran: z.array(AdvanceReportLineSchema) }).meta({ id: 'AdvancedClock' });
export type AdvancedClock = z.infer<typeof AdvancedClockSchema>;

export const AdvanceClockBody = z.strictObject({ seconds: z.number().int().min(1).max(315_360_000) });
