import type { ApiClient } from '../client/client.js';
import { AdvancedClockSchema, ClockSchema, type AdvancedClock, type ClockState } from '../schemas/sandbox.js';

export async function getClock(client: ApiClient): Promise<ClockState> {
  return (await client.request({ method: 'GET', path: '/v1/sandbox/clock', schema: ClockSchema })).data;
}

export async function advanceClock(client: ApiClient, seconds: number): Promise<AdvancedClock> {
  // An advance runs everything that falls due (webhook attempts wait up to 10 s each), so it may take
  // long; it is never retried: a retry would only meet the first call still in progress (409).
  return (
    await client.request({ method: 'POST', path: '/v1/sandbox/clock/advance', body: { seconds }, schema: AdvancedClockSchema, maxAttempts: 1, timeoutMs: 60 * 60_000 })
  ).data;
}
