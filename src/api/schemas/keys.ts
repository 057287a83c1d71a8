import { z } from 'zod';
import { DisplayName, NullableTimestamp, Timestamp } from './common.js';
import { pageOf } from './page.js';
import { KEY_MODES } from '../values/keys.js';

// contract §3: keys. `key` appears only in the create response; the service stores a hash.
export const KeyMode = z.enum(KEY_MODES);

export const CreateKeyBody = z.strictObject({
  name: DisplayName(z.string().min(1).max(100)),
  mode: KeyMode.default('live'),
});
export type CreateKeyBody = z.input<typeof CreateKeyBody>;

export const ApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: KeyMode,
    prefix: z.string(),
    createdAt: Timestamp,
    lastUsedAt: NullableTimestamp,
    revokedAt: NullableTimestamp,
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    mode: KeyMode,
    prefix: z.string(),
    /** The key, shown once; null on an idempotent replay (the service never stores it). */
    key: z.string().nullable(),
    createdAt: Timestamp,
  })
  .meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

export const ApiKeyPage = pageOf(ApiKeySchema);
