// Ordered migrations. Append only: never edit one that has shipped; add a new version instead.
// Every table keeps `seq INTEGER PRIMARY KEY AUTOINCREMENT` for keyset pagination (contract §2:
// keyset on (createdAt, id)); `created_at` is integer milliseconds of service time.

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'accounts, keys, idempotency, jobs, events',
    sql: `
      CREATE TABLE accounts (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        parent_id TEXT REFERENCES accounts(id),
        is_agency INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL DEFAULT 'active',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE INDEX accounts_parent ON accounts(parent_id, created_at, seq);

      CREATE TABLE api_keys (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL REFERENCES accounts(id),
        name TEXT NOT NULL,
        mode TEXT NOT NULL CHECK (mode IN ('live','test')),
        prefix TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        created_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      );
      CREATE INDEX api_keys_account ON api_keys(account_id, created_at, seq);

      CREATE TABLE idempotency_keys (
        account_id TEXT NOT NULL,
        method TEXT NOT NULL,
        path TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('in_flight','done')),
        status INTEGER,
        body TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (account_id, method, path, key)
      );
      CREATE INDEX idempotency_created ON idempotency_keys(created_at);

      CREATE TABLE jobs (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        kind TEXT NOT NULL,
        run_at INTEGER NOT NULL,
        payload TEXT NOT NULL,
        attempts INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL
      );
      CREATE INDEX jobs_due ON jobs(run_at, seq);

      CREATE TABLE events (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        id TEXT NOT NULL UNIQUE,
        account_id TEXT NOT NULL,
        type TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX events_account ON events(account_id, seq);
      CREATE INDEX events_account_type ON events(account_id, type, seq);
    `,
  },
];

MIGRATIONS.push({
  version: 2,
  name: 'numbers, messages, charges',
  sql: `
    CREATE TABLE numbers (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      phone_number TEXT NOT NULL,
      type TEXT NOT NULL CHECK (type IN ('local','tollfree')),
      cap_sms INTEGER NOT NULL,
      cap_mms INTEGER NOT NULL,
      cap_voice INTEGER NOT NULL,
      label TEXT,
      status TEXT NOT NULL,
      campaign_id TEXT,
      campaign_name TEXT,
      caller_id_name TEXT,
      caller_id_status TEXT NOT NULL DEFAULT 'off',
      emergency TEXT,
      tfv_status TEXT NOT NULL,
      tfv_rejection_reason TEXT,
      tfv_submission TEXT,
      route TEXT,
      released_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX numbers_account ON numbers(account_id, created_at, seq);
    -- A number has at most one owner until it is released (contract §5: never a number any account owns).
    CREATE UNIQUE INDEX numbers_owned_phone ON numbers(phone_number) WHERE status != 'released';

    CREATE TABLE messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      number_id TEXT,
      direction TEXT NOT NULL CHECK (direction IN ('outbound','inbound')),
      from_number TEXT NOT NULL,
      to_number TEXT NOT NULL,
      counterparty TEXT NOT NULL,
      body TEXT NOT NULL,
      status TEXT NOT NULL,
      segments INTEGER NOT NULL,
      channel TEXT NOT NULL,
      media TEXT,
      reason TEXT,
      test INTEGER NOT NULL DEFAULT 0,
      provider_message_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX messages_account ON messages(account_id, created_at, seq);
    CREATE INDEX messages_thread ON messages(account_id, counterparty, created_at, seq);

    CREATE TABLE charges (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      category TEXT NOT NULL,
      quantity INTEGER NOT NULL,
      amount_cents INTEGER NOT NULL,
      ref TEXT,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX charges_account ON charges(account_id, created_at);
  `,
});
