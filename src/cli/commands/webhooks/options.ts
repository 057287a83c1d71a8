import { UsageError } from '../../errors.js';
import { parseTypeList } from '../events/types-flag.js';
import { requireHttpUrl } from './url-flag.js';
import { TAIL_INTERVAL_MS } from './columns.js';
import type { DELIVERY_STATUSES } from '../../../api/values/webhooks.js';
import type { ListFlags } from '../../command-kit.js';

// The webhooks verbs' flags as commander gives them, and the options their run modules work with:
// the one conversion each, checked before anything is sent.

export const DEFAULT_TAIL_LAST = '10';
export const DEFAULT_LISTEN_CONCURRENCY = '1';

/** get, delete, test, rotate-secret: the endpoint's id. */
export interface WebhookArg {
  id: string;
}

export interface CreateWebhookOptions {
  url: string;
  events?: string[];
  description?: string;
}

export const createWebhookOptionsOf = (o: { url: string; events?: string; description?: string }): CreateWebhookOptions => ({
  url: requireHttpUrl(o.url, '--url'),
  events: parseTypeList(o.events, '--events'),
  description: o.description,
});

export interface UpdateWebhookFlags {
  id: string;
  url?: string;
  events?: string;
  description?: string;
  enable?: boolean;
  disable?: boolean;
}

export interface UpdateWebhookOptions {
  id: string;
  url?: string;
  events?: string[];
  /** `''` clears it. */
  description?: string;
  enabled?: boolean;
}

export function updateWebhookOptionsOf(o: UpdateWebhookFlags): UpdateWebhookOptions {
  if (o.enable && o.disable) throw new UsageError('give --enable or --disable, not both', '--disable');
  return {
    id: o.id,
    url: o.url === undefined ? undefined : requireHttpUrl(o.url, '--url'),
    events: parseTypeList(o.events, '--events'),
    description: o.description,
    enabled: o.enable ? true : o.disable ? false : undefined,
  };
}

export interface ListDeliveriesOptions extends ListFlags {
  id: string;
  status?: (typeof DELIVERY_STATUSES)[number];
}

export interface RetryDeliveryOptions {
  id: string;
  deliveryId: string;
}

export interface TailOptions {
  id: string;
  /** Deliveries of the log printed first (newest N, oldest first). */
  last: number;
  /** How often the log is read. */
  intervalMs: number;
}

export function tailOptionsOf(o: { id: string; last?: string }): TailOptions {
  const last = Number(o.last ?? DEFAULT_TAIL_LAST);
  if (!Number.isInteger(last) || last < 0 || last > 100) throw new UsageError('--last must be a whole number from 0 to 100', '--last');
  return { id: o.id, last, intervalMs: TAIL_INTERVAL_MS };
}

export interface ListenFlags {
  forwardTo?: string[];
  events?: string;
  headers?: string[];
  secret?: string;
  printSecret?: boolean;
  since?: string;
  cursorFile?: string;
  concurrency?: string;
}

export interface ListenOptions {
  /** `--forward-to`, as given: `URL` or `TYPE_PATTERN=URL`, in order. */
  forwardTo: string[];
  events?: string[];
  headers: string[];
  secret?: string;
  printSecret: boolean;
  since?: string;
  cursorFile?: string;
  concurrency: number;
}

export function listenOptionsOf(o: ListenFlags): ListenOptions {
  const concurrency = Number(o.concurrency ?? DEFAULT_LISTEN_CONCURRENCY);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 50) throw new UsageError('--concurrency must be a whole number from 1 to 50', '--concurrency');
  return {
    forwardTo: o.forwardTo ?? [],
    events: parseTypeList(o.events, '--events'),
    headers: o.headers ?? [],
    secret: o.secret,
    printSecret: Boolean(o.printSecret),
    since: o.since,
    cursorFile: o.cursorFile,
    concurrency,
  };
}
