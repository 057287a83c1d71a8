import type { ResponseOf } from '../parsers.js';
import { listEndpoint } from './list.js';

// conventions 7: one function or list descriptor per endpoint. contract §4: opt-out keywords.
export type OptOut = ResponseOf<'OptOutSchema'>;

/** GET /v1/opt-outs, newest first: `from` = the account's number, `phoneNumber` = the consumer. */
export const optOutList = listEndpoint<OptOut, OptOutListFilter>({ path: '/v1/opt-outs', row: 'OptOutSchema' });
export type OptOutListFilter = { from?: string; phoneNumber?: string };
