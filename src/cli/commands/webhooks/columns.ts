import type { Delivery } from '../../../api/schemas/webhooks.js';
// Columns of webhook endpoints and deliveries, shared by the webhooks verbs.
export const ENDPOINT_COLUMNS = ['id', 'url', 'events', 'enabled', 'description', 'disabledAt', 'disabledReason', 'createdAt', 'updatedAt'];
export const ENDPOINT_LIST_COLUMNS = ['id', 'url', 'events', 'enabled', 'disabledReason', 'description', 'createdAt'];
export const ENDPOINT_WITH_SECRET_COLUMNS = ['id', 'url', 'secret', 'events', 'enabled', 'description', 'createdAt'];
export const DELIVERY_COLUMNS = ['id', 'eventType', 'eventId', 'attempt', 'status', 'responseStatus', 'durationMs', 'error', 'nextAttemptAt', 'createdAt'];

export const SECRET_NOTICE = 'Save the signing secret now: it is shown only this once (svc webhooks rotate-secret replaces it).';

/** Why a delivery failed, in a few words: the connection error, else the HTTP status. */
export const deliveryFailure = (d: Delivery): string => d.error ?? (d.responseStatus !== null ? `HTTP ${d.responseStatus}` : d.status);

/** `webhooks tail`: the columns of a line (piped: tab-separated). */
export const TAIL_COLUMNS = ['time', 'id', 'eventType', 'eventId', 'attempt', 'status', 'responseStatus', 'durationMs', 'nextAttemptAt', 'error'];
/** spec: the log is read every ~1 s. */
export const TAIL_INTERVAL_MS = 1000;
