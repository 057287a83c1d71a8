import type { ApiClient } from '../client/client.js';
import type { AdvancedClock, ClockState } from '../schemas/sandbox.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

const clockParser = responseParser('ClockSchema');
const advancedClockParser = responseParser('AdvancedClockSchema');

export const sandboxClockEndpoints = {
  get: { method: 'GET', path: '/v1/sandbox/clock' },
  advance: { method: 'POST', path: '/v1/sandbox/clock/advance', agencyLevel: true },
} as const satisfies Record<string, EndpointRef>;

export async function getClock(client: ApiClient): Promise<ClockState> {
  return (await client.request({ method: 'GET', path: sandboxClockEndpoints.get.path, schema: clockParser })).data;
}

export async function advanceClock(client: ApiClient, seconds: number): Promise<AdvancedClock> {
  // An advance runs everything that falls due (webhook attempts wait up to 10 s each), so it may take
  // long; it is never retried: a retry would only meet the first call still in progress (409).
  // The clock is the whole service's, not the context's sub-account's: sent without Service-Subaccount
  // (only the root account may move it; a sub-account's own key is still refused).
  return (
    await client.request({ method: 'POST', path: sandboxClockEndpoints.advance.path, body: { seconds }, schema: advancedClockParser, maxAttempts: 1, timeoutMs: 60 * 60_000, agencyLevel: true })
  ).data;
}
