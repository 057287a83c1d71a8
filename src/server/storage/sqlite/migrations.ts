// The SQLite engine's ordered migrations as it shipped them, kept as they ran (a file or snapshot made
// by any earlier build migrates forward through them). A new change of the schema is written once in
// shared/schema-changes.ts, not here.
// Every table keeps `seq INTEGER PRIMARY KEY AUTOINCREMENT` for keyset pagination (contract §2:
// keyset on (createdAt, id)); `created_at` is integer milliseconds of service time.

import { engineSchema, type Migration } from '../shared/schema-changes.js';

/** The migrations this engine shipped before the schema was written once (shared/schema-changes.ts). */
const SQLITE_HISTORY: Migration[] = [
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

SQLITE_HISTORY.push({
  version: 2,
  name: 'numbers, messages, conversations, charges, campaigns',
  sql: `
    -- Minimal 10DLC campaigns: the fields numbers need (assign, send). The registration work adds the
    -- rest of the spec's Campaign fields in a later migration.
    CREATE TABLE campaigns (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      brand_id TEXT NOT NULL,
      name TEXT NOT NULL,
      use_case TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('draft','submitted','dca_review','approved','rejected')),
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX campaigns_account ON campaigns(account_id, created_at, seq);

    CREATE TABLE numbers (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      phone_number TEXT NOT NULL,
      type TEXT NOT NULL CHECK (type IN ('local','tollfree')),
      cap_sms INTEGER NOT NULL,
      cap_mms INTEGER NOT NULL,
      cap_voice INTEGER NOT NULL,
      locality TEXT,
      region TEXT,
      label TEXT,
      status TEXT NOT NULL CHECK (status IN ('live','idle','pending','released')),
      campaign_id TEXT REFERENCES campaigns(id),
      caller_id_name TEXT,
      caller_id_status TEXT NOT NULL DEFAULT 'off',
      caller_id_requested_at INTEGER,
      emergency_enabled INTEGER NOT NULL DEFAULT 0,
      emergency_address TEXT,
      emergency_status TEXT NOT NULL DEFAULT 'off',
      emergency_requested_at INTEGER,
      tfv_status TEXT NOT NULL,
      tfv_rejection_reason TEXT,
      tfv_submission TEXT,
      tfv_submitted_at INTEGER,
      released_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX numbers_account ON numbers(account_id, created_at, seq);
    CREATE INDEX numbers_account_phone ON numbers(account_id, phone_number, seq);
    CREATE INDEX numbers_campaign ON numbers(campaign_id);
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
      status TEXT NOT NULL CHECK (status IN ('queued','sending','sent','delivered','failed','undelivered','received')),
      segments INTEGER NOT NULL,
      channel TEXT NOT NULL CHECK (channel IN ('sms','mms')),
      media TEXT,
      reason TEXT,
      test INTEGER NOT NULL DEFAULT 0,
      provider_message_id TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX messages_account ON messages(account_id, created_at, seq);
    CREATE INDEX messages_thread ON messages(account_id, counterparty, created_at, seq);

    -- One row per (account, counterparty), moved forward by every message in the same transaction, so
    -- the conversation list is a keyset scan instead of a GROUP BY over all messages.
    CREATE TABLE conversations (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      counterparty TEXT NOT NULL,
      last_message_id TEXT NOT NULL,
      last_at INTEGER NOT NULL,
      last_seq INTEGER NOT NULL,
      PRIMARY KEY (account_id, counterparty)
    );
    CREATE INDEX conversations_recent ON conversations(account_id, last_at, last_seq);

    -- contract §11: every charge, in cents, live only. ref is the id of what was charged.
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
    CREATE INDEX charges_ref ON charges(ref, category);
  `,
});

SQLITE_HISTORY.push({
  version: 3,
  name: 'webhook endpoints and deliveries',
  sql: `
    -- contract §10. The secret is kept in the clear: every attempt is signed with it.
    -- consecutive_failures / failing_since / last_success_at drive auto-disable (spec: Limits).
    CREATE TABLE webhook_endpoints (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      url TEXT NOT NULL,
      events TEXT NOT NULL,
      description TEXT,
      secret TEXT NOT NULL,
      enabled INTEGER NOT NULL DEFAULT 1,
      disabled_at INTEGER,
      disabled_reason TEXT,
      consecutive_failures INTEGER NOT NULL DEFAULT 0,
      failing_since INTEGER,
      last_success_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, created_at, seq);

    -- The outbox and the delivery log: one row per (event, endpoint), written in the event's
    -- transaction, showing the latest attempt; attempts holds the history (JSON array).
    -- next_attempt_at is set exactly while another attempt is scheduled. body is set only for
    -- samples (POST /test) that are not in the events table.
    CREATE TABLE webhook_deliveries (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL,
      event_id TEXT NOT NULL,
      event_type TEXT NOT NULL,
      body TEXT,
      is_test INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      attempt INTEGER NOT NULL DEFAULT 0,
      status TEXT NOT NULL CHECK (status IN ('pending','succeeded','failed','abandoned')),
      response_status INTEGER,
      response_body TEXT,
      duration_ms INTEGER,
      error TEXT,
      next_attempt_at INTEGER,
      attempts TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at, seq);
    CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at, seq) WHERE next_attempt_at IS NOT NULL;
    CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
  `,
});

SQLITE_HISTORY.push({
  version: 4,
  name: 'service state (the service clock across restarts)',
  sql: `
    CREATE TABLE service_state (
      key TEXT PRIMARY KEY,
      value TEXT NOT NULL
    );
  `,
});

SQLITE_HISTORY.push({
  version: 5,
  name: 'call routes and voicemail greetings',
  sql: `
    -- spec: Call route; contract §5. One row per number, written by the first route PUT or greeting
    -- upload. route is the saved route as JSON (null until the first PUT); greeting_media names the
    -- uploaded voicemail greeting in the media store; version is the ETag's source, raised by every
    -- change (If-Match compares it).
    CREATE TABLE number_routes (
      number_id TEXT PRIMARY KEY REFERENCES numbers(id),
      account_id TEXT NOT NULL REFERENCES accounts(id),
      route TEXT,
      greeting_media TEXT,
      version INTEGER NOT NULL,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
  `,
});

SQLITE_HISTORY.push({
  version: 6,
  name: 'calls, voicemails, blocked numbers, softphone devices',
  sql: `
    -- contract §6: Call. The engine's state (domain/voice/call-engine.ts, plain JSON) is stored with
    -- the call and rewritten by every step, in the transaction that emits the step's events; the
    -- columns beside it are what lists filter and views read. state is null once nothing is left to
    -- run (the trace stays in trace).
    CREATE TABLE calls (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      number_id TEXT NOT NULL,
      direction TEXT NOT NULL CHECK (direction IN ('inbound','outbound')),
      from_number TEXT NOT NULL,
      to_number TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('ringing','in_progress','completed','missed','blocked','failed')),
      started_at INTEGER NOT NULL,
      answered_at INTEGER,
      ended_at INTEGER,
      duration_seconds INTEGER,
      answered_by TEXT,
      answered_device TEXT,
      outcome TEXT CHECK (outcome IN ('missed','voicemail')),
      recording_id TEXT,
      voicemail_id TEXT,
      state TEXT,
      trace TEXT NOT NULL DEFAULT '[]',
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX calls_account ON calls(account_id, created_at, seq);
    CREATE INDEX calls_account_status ON calls(account_id, status, created_at, seq);
    CREATE INDEX calls_account_direction ON calls(account_id, direction, created_at, seq);
    -- contract §6: the auto-suggestion counts an account's recent inbound calls from one number.
    CREATE INDEX calls_caller ON calls(account_id, from_number, started_at);
    CREATE UNIQUE INDEX calls_recording ON calls(recording_id) WHERE recording_id IS NOT NULL;

    -- contract §6: Voicemail.
    CREATE TABLE voicemails (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      call_id TEXT NOT NULL REFERENCES calls(id),
      number_id TEXT NOT NULL,
      from_number TEXT NOT NULL,
      to_number TEXT NOT NULL,
      duration_seconds INTEGER NOT NULL,
      transcript TEXT,
      transcript_status TEXT NOT NULL CHECK (transcript_status IN ('available','failed')),
      received_at INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX voicemails_account ON voicemails(account_id, created_at, seq);

    -- spec: Blocked number. One entry per account and number.
    CREATE TABLE blocked_numbers (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      phone_number TEXT NOT NULL,
      reason TEXT,
      auto_suggested INTEGER NOT NULL DEFAULT 0,
      blocked_call_count INTEGER NOT NULL DEFAULT 0,
      last_blocked_at INTEGER,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL,
      UNIQUE (account_id, phone_number)
    );
    CREATE INDEX blocked_numbers_account ON blocked_numbers(account_id, created_at, seq);

    -- contract §6: Softphone devices, one per account, user and label. last_seen_at is the last
    -- heartbeat (service clock); presence is what the last heartbeat said (a view reads it with the
    -- 60 s staleness rule).
    CREATE TABLE devices (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      user_id TEXT NOT NULL,
      label TEXT NOT NULL,
      presence TEXT NOT NULL DEFAULT 'offline' CHECK (presence IN ('online','offline')),
      last_seen_at INTEGER,
      created_at INTEGER NOT NULL,
      UNIQUE (account_id, user_id, label)
    );
    CREATE INDEX devices_account ON devices(account_id, created_at, seq);
  `,
});

SQLITE_HISTORY.push({
  version: 7,
  name: 'the key mode and the address that placed a call',
  sql: `
    -- contract §11: usage is charged for live calls only, as for messages; a call's mode is the mode
    -- of the key that placed it (a sandbox call or a softphone call), kept on the row because the
    -- charge is recorded later, by the step that ends the call. Rows from before are live.
    ALTER TABLE calls ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    -- The address (scheme://host:port) the call was placed through: the steps run in the background,
    -- with no request to take it from, and the URLs their events carry (voicemail audio) are built on
    -- it, as media URLs are built on the address the caller used. Null: the URLs stay relative.
    ALTER TABLE calls ADD COLUMN origin TEXT;
  `,
});

SQLITE_HISTORY.push({
  version: 8,
  name: 'brands, full campaigns, leads, ports',
  sql: `
    -- spec: Brand (10DLC). The registration request's optional strings live in fields (JSON: the
    -- spec's names as keys); what rules and lists read are columns.
    CREATE TABLE brands (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      legal_name TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('draft','submitted','approved','rejected')),
      mock INTEGER NOT NULL DEFAULT 0,
      entity_type TEXT CHECK (entity_type IN ('PRIVATE_PROFIT','PUBLIC_PROFIT','NON_PROFIT','GOVERNMENT','SOLE_PROPRIETOR')),
      fields TEXT NOT NULL DEFAULT '{}',
      tcr_brand_id TEXT,
      identity_status TEXT CHECK (identity_status IN ('SELF_DECLARED','UNVERIFIED','VERIFIED','VETTED_VERIFIED')),
      vetting_provider TEXT,
      vetting_class TEXT,
      vetting_score INTEGER,
      carrier_suspended TEXT,
      compliance_pages TEXT,
      page_config TEXT,
      rejection_reason TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX brands_account ON brands(account_id, created_at, seq);

    -- spec: Campaign (10DLC). Migration 2 made the columns numbers need; these add the rest. content
    -- is the campaign create request without brandId (JSON); a row without it (made before this
    -- migration) reads as an empty campaign.
    ALTER TABLE campaigns ADD COLUMN content TEXT;
    ALTER TABLE campaigns ADD COLUMN tcr_campaign_id TEXT;
    ALTER TABLE campaigns ADD COLUMN mock INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE campaigns ADD COLUMN cnp_sharing_status TEXT CHECK (cnp_sharing_status IN ('none','pending','accepted','declined'));
    ALTER TABLE campaigns ADD COLUMN mno_metadata TEXT;
    ALTER TABLE campaigns ADD COLUMN remediation_attempts INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE campaigns ADD COLUMN last_rejection_reason TEXT;

    -- spec: lead.captured — one row per submission of a brand's hosted opt-in form.
    CREATE TABLE leads (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      brand_id TEXT NOT NULL REFERENCES brands(id),
      first_name TEXT NOT NULL,
      last_name TEXT NOT NULL,
      email TEXT,
      phone TEXT NOT NULL,
      consent INTEGER NOT NULL,
      consent_text TEXT NOT NULL,
      captured_at INTEGER NOT NULL,
      created_at INTEGER NOT NULL
    );
    CREATE INDEX leads_brand ON leads(brand_id, created_at, seq);

    -- contract §7: port requests. The PIN is a secret of the losing carrier account: only whether
    -- one was given is kept (has_pin), never the PIN.
    CREATE TABLE ports (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      status TEXT NOT NULL CHECK (status IN ('draft','submitted','foc_scheduled','completed','rejected','canceled')),
      phone_numbers TEXT NOT NULL,
      authorized_name TEXT NOT NULL,
      account_number TEXT NOT NULL,
      has_pin INTEGER NOT NULL DEFAULT 0,
      service_address TEXT NOT NULL,
      foc_date INTEGER,
      rejection_reason TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX ports_account ON ports(account_id, created_at, seq);

    -- contract §7: a port's documents (letter of authorization, bill). Private: never under /media/.
    CREATE TABLE port_documents (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      port_id TEXT NOT NULL REFERENCES ports(id),
      type TEXT NOT NULL CHECK (type IN ('loa','bill')),
      filename TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      content BLOB NOT NULL,
      uploaded_at INTEGER NOT NULL
    );
    CREATE INDEX port_documents_port ON port_documents(port_id, seq);
  `,
});

SQLITE_HISTORY.push({
  version: 9,
  name: 'sending domains, emails and recipients, suppressions, the mail sandbox, sandbox DNS',
  sql: `
    -- spec: Sending domain; contract §8. A domain belongs to one account (UNIQUE domain); a released
    -- domain's row is deleted (spec: expired domains no longer exist). records is the JSON list of
    -- DNS records to publish with their last checked status.
    CREATE TABLE sending_domains (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      domain TEXT NOT NULL UNIQUE,
      status TEXT NOT NULL CHECK (status IN ('pending','verified','failed','degraded')),
      records TEXT NOT NULL,
      ever_verified INTEGER NOT NULL DEFAULT 0,
      created_at INTEGER NOT NULL,
      verified_at INTEGER,
      last_checked_at INTEGER,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX sending_domains_account ON sending_domains(account_id, created_at, seq);

    -- spec: Email resource; contract §8. The body (html, text) is kept for the mail sandbox.
    CREATE TABLE emails (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      domain_id TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('queued','sent','delivered','partially_delivered','bounced','failed')),
      mode TEXT NOT NULL CHECK (mode IN ('live','test')),
      from_header TEXT NOT NULL,
      subject TEXT,
      html TEXT,
      text TEXT,
      tags TEXT NOT NULL DEFAULT '[]',
      metadata TEXT NOT NULL DEFAULT '{}',
      external_ref TEXT,
      created_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX emails_account ON emails(account_id, created_at, seq);

    -- contract §8: one row per recipient; status is its delivery, the timestamps its engagement.
    CREATE TABLE email_recipients (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      email_id TEXT NOT NULL REFERENCES emails(id),
      address TEXT NOT NULL,
      kind TEXT NOT NULL CHECK (kind IN ('to','cc','bcc')),
      status TEXT NOT NULL CHECK (status IN ('queued','sent','deferred','delivered','bounced','failed','suppressed')),
      opened_at INTEGER,
      clicked_at INTEGER,
      complained_at INTEGER,
      unsubscribed_at INTEGER,
      delivered_at INTEGER,
      updated_at INTEGER NOT NULL
    );
    CREATE INDEX email_recipients_email ON email_recipients(email_id, seq);

    -- contract §8: suppressions per account and address; a complaint cannot be removed.
    CREATE TABLE email_suppressions (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      address TEXT NOT NULL,
      reason TEXT NOT NULL CHECK (reason IN ('hard_bounce','complaint','unsubscribe')),
      email_id TEXT,
      created_at INTEGER NOT NULL,
      UNIQUE (account_id, address)
    );
    CREATE INDEX email_suppressions_account ON email_suppressions(account_id, created_at, seq);

    -- contract §8 (extension): every message the simulated mail server delivered, oldest first.
    CREATE TABLE mailbox_messages (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      email_id TEXT NOT NULL REFERENCES emails(id),
      to_address TEXT NOT NULL,
      from_header TEXT NOT NULL,
      subject TEXT,
      text TEXT,
      html TEXT,
      tags TEXT NOT NULL DEFAULT '[]',
      delivered_at INTEGER NOT NULL
    );
    CREATE INDEX mailbox_messages_account ON mailbox_messages(account_id, seq);

    -- contract §9: the sandbox DNS table (PUT /v1/sandbox/dns/{name}); a name answers as still
    -- propagating before visible_at, and a name with no row is missing.
    CREATE TABLE sandbox_dns (
      name TEXT PRIMARY KEY,
      records TEXT NOT NULL,
      visible_at INTEGER NOT NULL,
      updated_at INTEGER NOT NULL
    );
  `,
});

SQLITE_HISTORY.push({
  version: 10,
  name: 'the per-recipient email timeline',
  sql: `
    -- contract §8: GET /v1/emails/{id}/events, oldest first. One row per report about one recipient
    -- (written in the transaction that emits the matching email.* event); recipient_seq ties it to
    -- its email_recipients row, so a bcc recipient's entry can omit the address and stay its own.
    CREATE TABLE email_events (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      email_id TEXT NOT NULL REFERENCES emails(id),
      recipient_seq INTEGER NOT NULL REFERENCES email_recipients(seq),
      type TEXT NOT NULL,
      status TEXT NOT NULL,
      occurred_at INTEGER NOT NULL,
      bounce TEXT,
      url TEXT,
      method TEXT CHECK (method IN ('link','one_click')) -- NULL passes a CHECK: only unsubscribes carry one
    );
    CREATE INDEX email_events_email ON email_events(email_id, seq);
    -- contract §8: the complaint-rate window counts an account's deliveries and complaints.
    CREATE INDEX email_recipients_delivered ON email_recipients(delivered_at) WHERE delivered_at IS NOT NULL;
    CREATE INDEX emails_account_domain ON emails(account_id, domain_id);
  `,
});

SQLITE_HISTORY.push({
  version: 11,
  name: 'hourly email reputation counters',
  sql: `
    -- spec: Limits (complaint rate); contract §8. The pause is checked on every send, so it reads
    -- counters, not the recipients: one row per account and hour of delivery (live email only),
    -- with how many recipients were delivered in that hour and how many of those later complained.
    -- Summing at most 721 rows costs the same at 10 or 10 million deliveries.
    CREATE TABLE email_reputation (
      account_id TEXT NOT NULL,
      hour INTEGER NOT NULL,
      delivered INTEGER NOT NULL DEFAULT 0,
      complained INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (account_id, hour)
    ) WITHOUT ROWID;
    INSERT INTO email_reputation (account_id, hour, delivered, complained)
      SELECT e.account_id, (r.delivered_at / 3600000) * 3600000, COUNT(*), COUNT(r.complained_at)
        FROM email_recipients r JOIN emails e ON e.id = r.email_id
       WHERE e.mode = 'live' AND r.delivered_at IS NOT NULL
       GROUP BY e.account_id, (r.delivered_at / 3600000) * 3600000;
    -- The counters replace the scan this index served; every delivery no longer pays to keep it.
    DROP INDEX email_recipients_delivered;
  `,
});

SQLITE_HISTORY.push({
  version: 12,
  name: 'money: the ledger, wallets, holds',
  sql: `
    -- contract §11: the ledger is append-only — every charge, credit, hold, release and
    -- refund is a row with its cause — so a wallet's balance can be recomputed from it at any time.
    -- amount_cents is signed as it moves the balance (a charge or a hold negative, a credit or a
    -- release positive); balance_after_cents is the wallet after the row. The old charges table is
    -- its first rows (kind 'charge').
    CREATE TABLE ledger (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL CHECK (kind IN ('charge','credit','hold','release','refund')),
      category TEXT,
      quantity INTEGER NOT NULL DEFAULT 0,
      amount_cents INTEGER NOT NULL,
      balance_after_cents INTEGER,
      cause TEXT NOT NULL,
      ref TEXT,
      hold_id TEXT,
      created_at INTEGER NOT NULL
    );
    INSERT INTO ledger (id, account_id, kind, category, quantity, amount_cents, cause, ref, created_at)
      SELECT id, account_id, 'charge', category, quantity, -amount_cents, 'usage: ' || category, ref, created_at FROM charges ORDER BY seq;
    DROP TABLE charges;
    CREATE INDEX ledger_account ON ledger(account_id, created_at, seq);
    CREATE INDEX ledger_ref ON ledger(ref, category);
    CREATE INDEX ledger_hold ON ledger(hold_id) WHERE hold_id IS NOT NULL;

    -- contract §11: one wallet per account with its settings; balance_cents is the running sum of
    -- the account's ledger. low_balance_armed: the low-balance event fires once per crossing.
    CREATE TABLE wallets (
      account_id TEXT PRIMARY KEY REFERENCES accounts(id),
      balance_cents INTEGER NOT NULL CHECK (balance_cents >= 0),
      auto_recharge_enabled INTEGER NOT NULL DEFAULT 0,
      threshold_cents INTEGER NOT NULL,
      recharge_amount_cents INTEGER NOT NULL,
      low_balance_armed INTEGER NOT NULL DEFAULT 1,
      spend_limit_cents INTEGER NOT NULL,
      card_token TEXT,
      card_last4 TEXT,
      plan TEXT NOT NULL DEFAULT 'free' CHECK (plan IN ('free','starter','pro')),
      subscription_status TEXT NOT NULL DEFAULT 'active' CHECK (subscription_status IN ('active','past_due','canceled')),
      current_period_end INTEGER,
      updated_at INTEGER NOT NULL
    );

    -- contract §11: a reservation of money for an action charged later (a message on 'sent'): open
    -- holds are already out of the balance, so a burst of sends can never overdraw the wallet.
    CREATE TABLE holds (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      category TEXT NOT NULL,
      amount_cents INTEGER NOT NULL CHECK (amount_cents >= 0),
      ref TEXT,
      status TEXT NOT NULL CHECK (status IN ('open','settled','released')),
      created_at INTEGER NOT NULL,
      closed_at INTEGER
    );
    CREATE INDEX holds_ref ON holds(ref);
    CREATE INDEX holds_open ON holds(account_id) WHERE status = 'open';

    -- Accounts that exist already get what a new account gets (NEW_ACCOUNT_WALLET_CENTS,
    -- NEW_ACCOUNT_SPEND_LIMIT_CENTS, AUTO_RECHARGE_DEFAULTS as of this migration), as ledger rows: the
    -- opening credit, then, where earlier usage exceeded it, a credit that settles it to zero.
    INSERT INTO ledger (id, account_id, kind, amount_cents, cause, created_at)
      SELECT 'led_open_' || id, id, 'credit', 2000, 'new account credit', created_at FROM accounts;
    INSERT INTO ledger (id, account_id, kind, amount_cents, cause, created_at)
      SELECT 'led_settle_' || account_id, account_id, 'credit', -total, 'opening balance: usage before the wallet existed', last_at
        FROM (SELECT account_id, SUM(amount_cents) AS total, MAX(created_at) AS last_at FROM ledger GROUP BY account_id)
       WHERE total < 0;
    INSERT INTO wallets (account_id, balance_cents, threshold_cents, recharge_amount_cents, spend_limit_cents, updated_at)
      SELECT a.id, (SELECT COALESCE(SUM(amount_cents), 0) FROM ledger l WHERE l.account_id = a.id), 500, 2000, 10000, a.created_at
        FROM accounts a;
  `,
});

SQLITE_HISTORY.push({
  version: 13,
  name: "the month's spend kept on the wallet",
  sql: `
    -- contract §11: every live action checks the month's spend against the limit; summing the
    -- month's ledger on each one grew with the month (bench/messages). The wallet keeps the month it
    -- counts (its UTC start on the service clock) and the usage charged in it, updated with each
    -- ledger row (domain/billing/wallet.ts move); a wallet whose month is not the current one is
    -- counted once from the ledger. NULL: not counted yet.
    ALTER TABLE wallets ADD COLUMN spend_month INTEGER;
    ALTER TABLE wallets ADD COLUMN spend_month_cents INTEGER NOT NULL DEFAULT 0;
  `,
});

SQLITE_HISTORY.push({
  version: 14,
  name: 'opt-outs: consumers who texted a stop word to a number',
  sql: `
    -- contract §4, "Opt-out keywords": one row per opt-out of one number (from_number: the account's
    -- number, or the test sender, whose number_id is NULL) by one consumer (phone_number). A start
    -- word lifts it: the row stays, 'lifted', with when and with which word, so the history of
    -- consent is kept; at most one 'active' row per number and consumer. keyword: the word texted,
    -- upper case.
    CREATE TABLE opt_outs (
      seq INTEGER PRIMARY KEY AUTOINCREMENT,
      id TEXT NOT NULL UNIQUE,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      number_id TEXT,
      from_number TEXT NOT NULL,
      phone_number TEXT NOT NULL,
      keyword TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('active','lifted')),
      created_at INTEGER NOT NULL,
      lifted_at INTEGER,
      lifted_keyword TEXT
    );
    -- Every send reads this (is the recipient opted out of the sender?), and it keeps one active row.
    CREATE UNIQUE INDEX opt_outs_active_pair ON opt_outs(account_id, from_number, phone_number) WHERE status = 'active';
    -- GET /v1/opt-outs: the active rows, newest first (keyset on created_at, seq).
    CREATE INDEX opt_outs_active_list ON opt_outs(account_id, created_at, seq) WHERE status = 'active';
  `,
});

SQLITE_HISTORY.push({
  version: 15,
  name: 'the mode of the key that created a record; idempotency keys scoped by mode',
  sql: `
    -- contract §2: "a test key may change or delete only what a test key created". Each
    -- record a key can change afterwards keeps the mode of the key that created it (API keys, calls
    -- and emails have theirs already). Rows from before are live: the safe side, a test key may not
    -- change them.
    ALTER TABLE numbers ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE webhook_endpoints ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE sending_domains ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE brands ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE campaigns ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE ports ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE devices ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE accounts ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));

    -- contract §2: "Idempotency keys are scoped by mode as well": the same key sent with a test key,
    -- then with a live key, is two requests (a replay across modes answered a live caller with a
    -- test message, nothing sent live). The mode joins the primary key, so the table is rebuilt.
    -- Answers recorded before are kept as live ones (at most 24 h of them).
    CREATE TABLE idempotency_keys_by_mode (
      account_id TEXT NOT NULL,
      mode TEXT NOT NULL CHECK (mode IN ('live','test')),
      method TEXT NOT NULL,
      path TEXT NOT NULL,
      key TEXT NOT NULL,
      request_hash TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('in_flight','done')),
      status INTEGER,
      body TEXT,
      created_at INTEGER NOT NULL,
      PRIMARY KEY (account_id, mode, method, path, key)
    );
    INSERT INTO idempotency_keys_by_mode (account_id, mode, method, path, key, request_hash, state, status, body, created_at)
      SELECT account_id, 'live', method, path, key, request_hash, state, status, body, created_at FROM idempotency_keys;
    DROP TABLE idempotency_keys;
    ALTER TABLE idempotency_keys_by_mode RENAME TO idempotency_keys;
    CREATE INDEX idempotency_created ON idempotency_keys(created_at);
  `,
});

SQLITE_HISTORY.push({
  version: 16,
  name: 'the mail sandbox keeps an email body once',
  sql: `
    -- contract §8 (extension): an email sent with html only gets its text part derived once,
    -- when it is handed to the mail server, and kept here; the mail sandbox rows of its recipients
    -- read the body (html, text or this) from the email instead of each holding a copy (50 recipients
    -- of a 1 MB body were 100 MB written in one job). Rows written before keep their own copy.
    CREATE TABLE email_derived_texts (
      email_id TEXT PRIMARY KEY REFERENCES emails(id),
      text TEXT NOT NULL
    );
  `,
});

SQLITE_HISTORY.push({
  version: 17,
  name: 'the mode of the key that added a blocked number or published a sandbox DNS name',
  sql: `
    -- contract §2: "a test key may change or delete only what a test key created". A blocked
    -- number keeps the mode of the key that added it (a suggestion: live when a live call counted
    -- toward it); a sandbox DNS name the mode of the key that last published it. Rows from before are
    -- live: the safe side, a test key may not change them.
    ALTER TABLE blocked_numbers ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
    ALTER TABLE sandbox_dns ADD COLUMN mode TEXT NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'));
  `,
});

SQLITE_HISTORY.push({
  version: 18,
  name: 'console sessions and their one-time links',
  sql: `
    -- The console. A row is a one-time link (kind 'link', 60 s) or the session it became
    -- (kind 'session'); only a SHA-256 of the link's token or of the session cookie is kept, so a copy
    -- of the database opens no console. Sessions live here, not in memory: a restart keeps them valid
    -- until they expire. Each is bound to the key that minted it (revoking it ends the session) and
    -- to the sub-account it acts on (NULL: the key's own account).
    CREATE TABLE console_sessions (
      hash TEXT PRIMARY KEY,
      kind TEXT NOT NULL CHECK (kind IN ('link','session')),
      -- A key removed (a bootstrap key re-minted after a snapshot load) takes its sessions with it.
      key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
      account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      subaccount_id TEXT REFERENCES accounts(id) ON DELETE CASCADE,
      csrf TEXT NOT NULL,
      created_at INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
    CREATE INDEX console_sessions_expiry ON console_sessions(expires_at);
  `,
});

SQLITE_HISTORY.push({
  version: 19,
  name: 'claims with leases on jobs that call the outside world and on webhook delivery attempts',
  sql: `
    -- A job that calls the outside world (the carrier's submission, a webhook tick) and a
    -- webhook delivery attempt are claimed by one process before it calls out: claimed_by names it,
    -- lease_until (wall-clock ms of the engine) says until when. A process that dies holding a claim
    -- releases it when the lease runs out, and another takes the work over. One process on SQLite
    -- wins every claim, but runs the same code path (and a second process on the file would not
    -- double the work either).
    ALTER TABLE jobs ADD COLUMN claimed_by TEXT;
    ALTER TABLE jobs ADD COLUMN lease_until INTEGER;
    ALTER TABLE webhook_deliveries ADD COLUMN claimed_by TEXT;
    ALTER TABLE webhook_deliveries ADD COLUMN lease_until INTEGER;
    CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(lease_until) WHERE lease_until IS NOT NULL;
  `,
});

SQLITE_HISTORY.push({
  version: 20,
  name: 'notices one process leaves for another on the same file',
  sql: `
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
  `,
});

SQLITE_HISTORY.push({
  version: 21,
  name: 'when an idempotency key was answered, on the real clock',
  sql: `
    -- contract §2: a request with the same key still in flight is a 409, not a replay. A send records
    -- its answer in its own transaction (no in-flight row first), so a duplicate finds only the
    -- answer; answered_at (real time, fractional ms) says whether it was written after the duplicate
    -- arrived (then the first was still in flight: 409) or before (a retry: the replay). NULL: unknown.
    ALTER TABLE idempotency_keys ADD COLUMN answered_at REAL;
  `,
});

/**
 * This engine's migrations (shared/schema-changes.ts `engineSchema`): its history, then the changes
 * written once in SQLite's words for their column types (its few storage classes; a flag is 0/1).
 */
export const { migrations: sqliteMigrations, MIGRATIONS, version: SQLITE_SCHEMA_VERSION } = engineSchema(SQLITE_HISTORY, {
  text: 'TEXT', int: 'INTEGER', bigint: 'INTEGER', flag: 'INTEGER', double: 'REAL', bytes: 'BLOB',
  seqPrimaryKey: 'INTEGER PRIMARY KEY AUTOINCREMENT',
});
