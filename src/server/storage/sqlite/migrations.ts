// The SQLite engine's schema: the shared tables (shared/shared-schema.ts) in SQLite's words, what only
// this engine has, and the steps that bring a file made by an earlier build forward. A new change of
// the schema is written once in shared/schema-changes.ts, not here.
// Every table keeps `seq INTEGER PRIMARY KEY AUTOINCREMENT` for keyset pagination (contract §2:
// keyset on (createdAt, id)); `created_at` is integer milliseconds of service time.

import { IDEMPOTENCY_ANSWERED_AT, engineSchema } from '../shared/schema-changes.js';

/** What only this engine has. */
const SQLITE_OWN = `
    -- The events feed reads by insertion order (PostgreSQL numbers events after commit instead).
    CREATE INDEX events_account ON events(account_id, seq);
    CREATE INDEX events_account_type ON events(account_id, type, seq);

    -- An API process and a worker process (roles api and worker) share this file and nothing
    -- else. A row here is a hint the worker leaves, in the transaction of what it stands for, for the
    -- API process's live pages (the console's stream, held reads of the feeds): an event it committed
    -- (kind 'event': ref its id, detail its type, move a message.status event's move as JSON) or a
    -- change that is no event (kind 'message' or 'call': ref the record's id, detail a message's new
    -- status). The API process reads the rows past the last it read when the file moved; the writer
    -- keeps the newest (process-notices.ts).
    CREATE TABLE process_notices (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      kind TEXT NOT NULL CHECK (kind IN ('event','message','call')),
      account_id TEXT NOT NULL,
      ref TEXT NOT NULL,
      detail TEXT,
      move TEXT
    );
`;

/**
 * This engine's schema (shared/schema-changes.ts `engineSchema`) in SQLite's words for the column
 * types (its few storage classes; a flag is 0/1). Files made by builds since schema version 20 come
 * forward.
 */
export const SQLITE_SCHEMA = engineSchema({
  types: {
    text: 'TEXT', int: 'INTEGER', bigint: 'INTEGER', flag: 'INTEGER', double: 'REAL', bytes: 'BLOB',
    seqPrimaryKey: 'INTEGER PRIMARY KEY AUTOINCREMENT', keyedStorage: ' WITHOUT ROWID', yes: '1', no: '0',
  },
  own: SQLITE_OWN,
  base: 21,
  upgrades: [{ version: 21, change: IDEMPOTENCY_ANSWERED_AT }],
});
