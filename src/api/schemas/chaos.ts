import { z } from 'zod';
import { CHAOS_FAULT_KINDS, CHAOS_LIMITS, CHAOS_SCOPES } from '../values/chaos.js';

// The chaos profile as the service reads it (`PUT /v1/sandbox/chaos`, `--chaos FILE`).
const Rate = z.number().min(0).max(1).describe('the share of chances that become this fault, 0 to 1');
export const ChaosFaultSchema = z
  .strictObject({
    rate: Rate,
    delayMs: z.number().int().min(0).max(CHAOS_LIMITS.maxDelayMs).optional().describe('carrier.late, api.slow, webhook.delay (default 1000)'),
    delaySecs: z.number().int().min(0).max(CHAOS_LIMITS.maxDelaySecs).optional().describe('mail.defer, mail.late: service-clock seconds (default 600)'),
    retryAfterSecs: z.number().int().min(0).max(CHAOS_LIMITS.maxRetryAfterSecs).optional().describe('api.429: the Retry-After header (default 1)'),
    afterSecs: z.number().int().min(1).max(86_400).optional().describe('call.drop: seconds after the call starts (default 5)'),
    reason: z.string().min(1).max(200).optional().describe('carrier.failed, carrier.undelivered: the message\'s reason'),
  })
  .meta({ id: 'ChaosFault' });

export const ChaosProfileSchema = z
  .strictObject({
    seed: z.number().int().min(0).max(0xffffffff).describe('the same seed and the same requests give the same faults'),
    faults: z.partialRecord(z.enum(CHAOS_FAULT_KINDS), ChaosFaultSchema).default({}),
  })
  .meta({ id: 'ChaosProfile' });

export const ChaosScopeQuery = z.object({
  scope: z.enum(CHAOS_SCOPES).default('account').describe("whose profile: the account acted on (default), or the service-wide one"),
});

export const ChaosLogSchema = z
  .object({
    data: z.array(
      z.object({
        seq: z.number().int(),
        at: z.string(),
        kind: z.enum(CHAOS_FAULT_KINDS),
        id: z.string(),
        detail: z.record(z.string(), z.unknown()),
      }),
    ),
  })
  .meta({ id: 'ChaosLog' });
