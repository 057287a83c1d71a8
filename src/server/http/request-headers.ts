/**
 * The request headers the API reads besides `Authorization`, each named once: the hooks that read
 * them import the name, and the OpenAPI document declares them as header parameters, so a client
 * generated from `/openapi.json` can send them without a cast.
 */

/** contract §2: accepted on every authenticated POST; a retry with the same key replays the answer. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** contract §2: 1-255 printable ASCII characters. */
export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
export const IDEMPOTENCY_KEY_RULE = 'must be 1-255 printable ASCII characters';

/** spec: Authentication 5 — an agency key acting on one of its direct sub-accounts. */
export const SUBACCOUNT_HEADER = 'service-subaccount';

/** contract §5 route concurrency: a PUT of a route with the tag it last read. */
export const IF_MATCH_HEADER = 'if-match';

export interface HeaderParameter {
  name: string;
  in: 'header';
  required: false;
  description: string;
  schema: Record<string, unknown>;
}

export const idempotencyKeyParameter = (): HeaderParameter => ({
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: the same key with the same body within 24 h answers the first status and body again (`Idempotent-Replayed: true`); the same key with another body, or while the first is still in flight, is `409 conflict`. Scoped to the account, the key\'s mode, the method and the path. 1-255 printable ASCII characters.',
  schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
});

export const subaccountParameter = (): HeaderParameter => ({
  name: 'Service-Subaccount',
  in: 'header',
  required: false,
  description:
    'An agency key acts on one of its direct sub-accounts: the sub-account\'s id. Any other id, or a key that is not an agency\'s, is `403 forbidden`.',
  schema: { type: 'string', minLength: 1 },
});

export const ifMatchParameter = (): HeaderParameter => ({
  name: 'If-Match',
  in: 'header',
  required: false,
  description: 'The `ETag` of the route as last read: if the saved route changed since, the PUT is `409 conflict` and nothing changes. Without it the PUT replaces the route.',
  schema: { type: 'string' },
});
