import type { ApiClient } from '../client/client.js';
import { ClockSchema, type ClockState } from '../schemas/sandbox.js';

export async function getClock(client: ApiClient): Promise<ClockState> {
  return (await client.request({ method: 'GET', path: '/v1/sandbox/clock', schema: ClockSchema })).data;
}

export async function advanceClock(client: ApiClient, seconds: number): Promise<ClockState> {
  return (await client.request({ method: 'POST', path: '/v1/sandbox/clock/advance', body: { seconds }, schema: ClockSchema })).data;
}
