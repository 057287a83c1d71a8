import { z } from 'zod';
import { Timestamp } from './common.js';
import { CLOCK_MODES } from '../values/sandbox.js';

// contract §1: the sandbox clock.
export const ClockSchema = z.object({ now: Timestamp, mode: z.enum(CLOCK_MODES) }).meta({ id: 'Clock' });
export type ClockState = z.infer<typeof ClockSchema>;

// Up to ten years in one call: enough for any schedule in the spec (the longest is 7 days).
export const AdvanceClockBody = z.strictObject({ seconds: z.number().int().min(1).max(315_360_000) });
