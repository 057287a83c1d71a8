import { randomUUID } from 'node:crypto';
import type { StoreNotices, StorePeers } from './store.js';

/**
 * The peers of a process alone on its database (SQLite, one process owns the file; a PostgreSQL
 * store opened without replicas): only itself. Nobody else commits what it could wait for, so there
 * is nothing to hear, nothing to tell, and every barrier is already passed. Its name in claims is
 * fresh per open, as a process that owns its database holds every claim in it.
 */
export function alonePeers(processId: string = randomUUID()): StorePeers {
  return {
    shared: false,
    processId,
    onEvent: () => undefined,
    onState: () => undefined,
    onChange: () => undefined,
    tellChange: () => undefined,
    onResync: () => undefined,
    count: () => 1,
    sync: () => Promise.resolve(),
    onQuiesce: () => undefined,
    quiesce: () => Promise.resolve(),
  };
}

/**
 * The notices of an engine whose processes hear each other another way (PostgreSQL: notifications,
 * `StorePeers`): none left, none heard.
 */
export const NO_NOTICES: StoreNotices = {
  leave: () => undefined,
  heard: () => Promise.resolve({ notices: [], missed: false }),
};
