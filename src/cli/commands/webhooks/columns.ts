import type { ColumnDef } from '../../../output/columns.js';
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

/** Sinks (contract §10, extension): the sink as people read it (its answer flattened), and what it kept. */
export const SINK_COLUMNS = ['id', 'url', 'endpointId', 'events', 'respondStatus', 'failFirst', 'delayMs', 'received', 'createdAt'];
export const SINK_WITH_SECRET_COLUMNS = ['id', 'url', 'secret', 'endpointId', 'events', 'respondStatus', 'failFirst', 'delayMs', 'createdAt'];
/** A kept request: what it answered and whether it verified stay longest on a narrow terminal. */
export const SINK_REQUEST_COLUMNS: ColumnDef[] = [
  { field: 'receivedAt', keep: 35 },
  'id',
  'eventType',
  { field: 'eventId', keep: 45 },
  { field: 'attempt', keep: 60 },
  { field: 'answeredStatus', header: 'answered', keep: 60 },
  { field: 'signatureValid', header: 'verified' },
];
export const SINK_SECRET_NOTICE = "Its endpoint's signing secret is shown only this once; the sink checks every request's signature with it.";

/** A sink as a row: `respond` flattened for tables and tab-separated lines (json and yaml print the API's). */
export const sinkRow = <S extends { respond: { status: number; failFirst: number; delayMs: number } }>(s: S) => {
  const { respond, ...rest } = s;
  return { ...rest, respondStatus: respond.status, failFirst: respond.failFirst, delayMs: respond.delayMs };
};
