// The schema both engines share, written once: every table and index as of SQLite's migration 21 and
// PostgreSQL's 6, in the column types below (ColumnTypes). A new database is made from it in one step
// (each engine adds what only it has: its migrations.ts); a database made by an earlier build reaches
// the same schema through the engine's upgrade steps. Column order, names and
// constraints are those the shipped migrations left (a column added later sits last, where ALTER TABLE
// put it), so a database made either way has one schema, and a snapshot of one loads into the other
// (the storage contract's schema checks, on both engines).
// Why a column is there is said where its records are read and written (the repositories).

/**
 * The column types of each engine, for DDL written once. The choices, and why each engine makes them,
 * are in postgres/migrations.ts's header (ids `text COLLATE "C"` to compare bytes as SQLite does;
 * times and counts `bigint`; flags `boolean`; JSON kept as text).
 */
export interface ColumnTypes {
  /** Ids and other text, compared and ordered byte by byte on both engines. */
  text: string;
  /** Small integers: statuses, attempts, limits. */
  int: string;
  /** Milliseconds of service time, and counts that may grow large. */
  bigint: string;
  /** A yes/no; bind it with the engine's Dialect `flag`, read it back through table.ts `yesNo`. */
  flag: string;
  /** A fraction (real time in milliseconds). */
  double: string;
  /** Raw bytes (media). */
  bytes: string;
  /** The keyset tie-break and feed position: `seq <this>` makes an auto-increasing primary key. */
  seqPrimaryKey: string;
  /** After a table keyed by its primary key alone: SQLite stores it in that key's order (WITHOUT ROWID). */
  keyedStorage: string;
  /** A flag's two values, as a DEFAULT. */
  yes: string;
  no: string;
}

/** The shared tables and indexes, in an engine's column types. */
export const sharedSchema = (t: ColumnTypes): string => `
    CREATE TABLE accounts (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      name ${t.text} NOT NULL,
      parent_id ${t.text} REFERENCES accounts(id),
      is_agency ${t.flag} NOT NULL DEFAULT ${t.no},
      status ${t.text} NOT NULL DEFAULT 'active',
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE INDEX accounts_parent ON accounts(parent_id, created_at, seq);
    CREATE TABLE api_keys (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      name ${t.text} NOT NULL,
      mode ${t.text} NOT NULL CHECK (mode IN ('live','test')),
      prefix ${t.text} NOT NULL,
      hash ${t.text} NOT NULL UNIQUE,
      created_at ${t.bigint} NOT NULL,
      last_used_at ${t.bigint},
      revoked_at ${t.bigint}
    );
    CREATE INDEX api_keys_account ON api_keys(account_id, created_at, seq);
    CREATE TABLE jobs (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      kind ${t.text} NOT NULL,
      run_at ${t.bigint} NOT NULL,
      payload ${t.text} NOT NULL,
      attempts ${t.bigint} NOT NULL DEFAULT 0,
      created_at ${t.bigint} NOT NULL,
      claimed_by ${t.text},
      lease_until ${t.bigint}
    );
    CREATE INDEX jobs_due ON jobs(run_at, seq);
    CREATE TABLE events (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL,
      type ${t.text} NOT NULL,
      created_at ${t.bigint} NOT NULL,
      body ${t.text} NOT NULL
    );
    CREATE TABLE campaigns (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      brand_id ${t.text} NOT NULL,
      name ${t.text} NOT NULL,
      use_case ${t.text} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('draft','submitted','dca_review','approved','rejected')),
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      content ${t.text},
      tcr_campaign_id ${t.text},
      mock ${t.flag} NOT NULL DEFAULT ${t.no},
      cnp_sharing_status ${t.text} CHECK (cnp_sharing_status IN ('none','pending','accepted','declined')),
      mno_metadata ${t.text},
      remediation_attempts ${t.bigint} NOT NULL DEFAULT 0,
      last_rejection_reason ${t.text},
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE INDEX campaigns_account ON campaigns(account_id, created_at, seq);
    CREATE TABLE numbers (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      phone_number ${t.text} NOT NULL,
      type ${t.text} NOT NULL CHECK (type IN ('local','tollfree')),
      cap_sms ${t.flag} NOT NULL,
      cap_mms ${t.flag} NOT NULL,
      cap_voice ${t.flag} NOT NULL,
      locality ${t.text},
      region ${t.text},
      label ${t.text},
      status ${t.text} NOT NULL CHECK (status IN ('live','idle','pending','released')),
      campaign_id ${t.text} REFERENCES campaigns(id),
      caller_id_name ${t.text},
      caller_id_status ${t.text} NOT NULL DEFAULT 'off',
      caller_id_requested_at ${t.bigint},
      emergency_enabled ${t.flag} NOT NULL DEFAULT ${t.no},
      emergency_address ${t.text},
      emergency_status ${t.text} NOT NULL DEFAULT 'off',
      emergency_requested_at ${t.bigint},
      tfv_status ${t.text} NOT NULL,
      tfv_rejection_reason ${t.text},
      tfv_submission ${t.text},
      tfv_submitted_at ${t.bigint},
      released_at ${t.bigint},
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE INDEX numbers_account ON numbers(account_id, created_at, seq);
    CREATE INDEX numbers_account_phone ON numbers(account_id, phone_number, seq);
    CREATE INDEX numbers_campaign ON numbers(campaign_id);
    CREATE UNIQUE INDEX numbers_owned_phone ON numbers(phone_number) WHERE status != 'released';
    CREATE TABLE messages (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      number_id ${t.text},
      direction ${t.text} NOT NULL CHECK (direction IN ('outbound','inbound')),
      from_number ${t.text} NOT NULL,
      to_number ${t.text} NOT NULL,
      counterparty ${t.text} NOT NULL,
      body ${t.text} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('queued','sending','sent','delivered','failed','undelivered','received')),
      segments ${t.bigint} NOT NULL,
      channel ${t.text} NOT NULL CHECK (channel IN ('sms','mms')),
      media ${t.text},
      reason ${t.text},
      test ${t.flag} NOT NULL DEFAULT ${t.no},
      provider_message_id ${t.text},
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    );
    CREATE INDEX messages_account ON messages(account_id, created_at, seq);
    CREATE INDEX messages_thread ON messages(account_id, counterparty, created_at, seq);
    CREATE TABLE conversations (
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      counterparty ${t.text} NOT NULL,
      last_message_id ${t.text} NOT NULL,
      last_at ${t.bigint} NOT NULL,
      last_seq ${t.bigint} NOT NULL,
      PRIMARY KEY (account_id, counterparty)
    );
    CREATE INDEX conversations_recent ON conversations(account_id, last_at, last_seq);
    CREATE TABLE webhook_endpoints (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      url ${t.text} NOT NULL,
      events ${t.text} NOT NULL,
      description ${t.text},
      secret ${t.text} NOT NULL,
      enabled ${t.flag} NOT NULL DEFAULT ${t.yes},
      disabled_at ${t.bigint},
      disabled_reason ${t.text},
      consecutive_failures ${t.bigint} NOT NULL DEFAULT 0,
      failing_since ${t.bigint},
      last_success_at ${t.bigint},
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, created_at, seq);
    CREATE TABLE webhook_deliveries (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      endpoint_id ${t.text} NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
      account_id ${t.text} NOT NULL,
      event_id ${t.text} NOT NULL,
      event_type ${t.text} NOT NULL,
      body ${t.text},
      is_test ${t.flag} NOT NULL DEFAULT ${t.no},
      max_attempts ${t.bigint} NOT NULL,
      attempt ${t.bigint} NOT NULL DEFAULT 0,
      status ${t.text} NOT NULL CHECK (status IN ('pending','succeeded','failed','abandoned')),
      response_status ${t.bigint},
      response_body ${t.text},
      duration_ms ${t.bigint},
      error ${t.text},
      next_attempt_at ${t.bigint},
      attempts ${t.text} NOT NULL DEFAULT '[]',
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      claimed_by ${t.text},
      lease_until ${t.bigint}
    );
    CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, created_at, seq);
    CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id);
    CREATE INDEX webhook_deliveries_due ON webhook_deliveries(next_attempt_at, seq) WHERE next_attempt_at IS NOT NULL;
    CREATE INDEX webhook_deliveries_created ON webhook_deliveries(created_at);
    CREATE TABLE service_state (
      key ${t.text} PRIMARY KEY,
      value ${t.text} NOT NULL
    );
    CREATE TABLE number_routes (
      number_id ${t.text} PRIMARY KEY REFERENCES numbers(id),
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      route ${t.text},
      greeting_media ${t.text},
      version ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    );
    CREATE TABLE calls (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      number_id ${t.text} NOT NULL,
      direction ${t.text} NOT NULL CHECK (direction IN ('inbound','outbound')),
      from_number ${t.text} NOT NULL,
      to_number ${t.text} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('ringing','in_progress','completed','missed','blocked','failed')),
      started_at ${t.bigint} NOT NULL,
      answered_at ${t.bigint},
      ended_at ${t.bigint},
      duration_seconds ${t.bigint},
      answered_by ${t.text},
      answered_device ${t.text},
      outcome ${t.text} CHECK (outcome IN ('missed','voicemail')),
      recording_id ${t.text},
      voicemail_id ${t.text},
      state ${t.text},
      trace ${t.text} NOT NULL DEFAULT '[]',
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test')),
      origin ${t.text}
    );
    CREATE INDEX calls_account ON calls(account_id, created_at, seq);
    CREATE INDEX calls_account_status ON calls(account_id, status, created_at, seq);
    CREATE INDEX calls_account_direction ON calls(account_id, direction, created_at, seq);
    CREATE INDEX calls_caller ON calls(account_id, from_number, started_at);
    CREATE UNIQUE INDEX calls_recording ON calls(recording_id) WHERE recording_id IS NOT NULL;
    CREATE TABLE voicemails (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      call_id ${t.text} NOT NULL REFERENCES calls(id),
      number_id ${t.text} NOT NULL,
      from_number ${t.text} NOT NULL,
      to_number ${t.text} NOT NULL,
      duration_seconds ${t.bigint} NOT NULL,
      transcript ${t.text},
      transcript_status ${t.text} NOT NULL CHECK (transcript_status IN ('available','failed')),
      received_at ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL
    );
    CREATE INDEX voicemails_account ON voicemails(account_id, created_at, seq);
    CREATE TABLE blocked_numbers (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      phone_number ${t.text} NOT NULL,
      reason ${t.text},
      auto_suggested ${t.flag} NOT NULL DEFAULT ${t.no},
      blocked_call_count ${t.bigint} NOT NULL DEFAULT 0,
      last_blocked_at ${t.bigint},
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test')),
      UNIQUE (account_id, phone_number)
    );
    CREATE INDEX blocked_numbers_account ON blocked_numbers(account_id, created_at, seq);
    CREATE TABLE devices (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      user_id ${t.text} NOT NULL,
      label ${t.text} NOT NULL,
      presence ${t.text} NOT NULL DEFAULT 'offline' CHECK (presence IN ('online','offline')),
      last_seen_at ${t.bigint},
      created_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test')),
      UNIQUE (account_id, user_id, label)
    );
    CREATE INDEX devices_account ON devices(account_id, created_at, seq);
    CREATE TABLE brands (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      legal_name ${t.text} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('draft','submitted','approved','rejected')),
      mock ${t.flag} NOT NULL DEFAULT ${t.no},
      entity_type ${t.text} CHECK (entity_type IN ('PRIVATE_PROFIT','PUBLIC_PROFIT','NON_PROFIT','GOVERNMENT','SOLE_PROPRIETOR')),
      fields ${t.text} NOT NULL DEFAULT '{}',
      tcr_brand_id ${t.text},
      identity_status ${t.text} CHECK (identity_status IN ('SELF_DECLARED','UNVERIFIED','VERIFIED','VETTED_VERIFIED')),
      vetting_provider ${t.text},
      vetting_class ${t.text},
      vetting_score ${t.bigint},
      carrier_suspended ${t.text},
      compliance_pages ${t.text},
      page_config ${t.text},
      rejection_reason ${t.text},
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE INDEX brands_account ON brands(account_id, created_at, seq);
    CREATE TABLE leads (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      brand_id ${t.text} NOT NULL REFERENCES brands(id),
      first_name ${t.text} NOT NULL,
      last_name ${t.text} NOT NULL,
      email ${t.text},
      phone ${t.text} NOT NULL,
      consent ${t.flag} NOT NULL,
      consent_text ${t.text} NOT NULL,
      captured_at ${t.bigint} NOT NULL,
      created_at ${t.bigint} NOT NULL
    );
    CREATE INDEX leads_brand ON leads(brand_id, created_at, seq);
    CREATE TABLE ports (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      status ${t.text} NOT NULL CHECK (status IN ('draft','submitted','foc_scheduled','completed','rejected','canceled')),
      phone_numbers ${t.text} NOT NULL,
      authorized_name ${t.text} NOT NULL,
      account_number ${t.text} NOT NULL,
      has_pin ${t.flag} NOT NULL DEFAULT ${t.no},
      service_address ${t.text} NOT NULL,
      foc_date ${t.bigint},
      rejection_reason ${t.text},
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE INDEX ports_account ON ports(account_id, created_at, seq);
    CREATE TABLE port_documents (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      port_id ${t.text} NOT NULL REFERENCES ports(id),
      type ${t.text} NOT NULL CHECK (type IN ('loa','bill')),
      filename ${t.text} NOT NULL,
      size_bytes ${t.bigint} NOT NULL,
      content ${t.bytes} NOT NULL,
      uploaded_at ${t.bigint} NOT NULL
    );
    CREATE INDEX port_documents_port ON port_documents(port_id, seq);
    CREATE TABLE sending_domains (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      domain ${t.text} NOT NULL UNIQUE,
      status ${t.text} NOT NULL CHECK (status IN ('pending','verified','failed','degraded')),
      records ${t.text} NOT NULL,
      ever_verified ${t.flag} NOT NULL DEFAULT ${t.no},
      created_at ${t.bigint} NOT NULL,
      verified_at ${t.bigint},
      last_checked_at ${t.bigint},
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE INDEX sending_domains_account ON sending_domains(account_id, created_at, seq);
    CREATE TABLE emails (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      domain_id ${t.text} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('queued','sent','delivered','partially_delivered','bounced','failed')),
      mode ${t.text} NOT NULL CHECK (mode IN ('live','test')),
      from_header ${t.text} NOT NULL,
      subject ${t.text},
      html ${t.text},
      text ${t.text},
      tags ${t.text} NOT NULL DEFAULT '[]',
      metadata ${t.text} NOT NULL DEFAULT '{}',
      external_ref ${t.text},
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL
    );
    CREATE INDEX emails_account ON emails(account_id, created_at, seq);
    CREATE TABLE email_recipients (
      seq ${t.seqPrimaryKey},
      email_id ${t.text} NOT NULL REFERENCES emails(id),
      address ${t.text} NOT NULL,
      kind ${t.text} NOT NULL CHECK (kind IN ('to','cc','bcc')),
      status ${t.text} NOT NULL CHECK (status IN ('queued','sent','deferred','delivered','bounced','failed','suppressed')),
      opened_at ${t.bigint},
      clicked_at ${t.bigint},
      complained_at ${t.bigint},
      unsubscribed_at ${t.bigint},
      delivered_at ${t.bigint},
      updated_at ${t.bigint} NOT NULL
    );
    CREATE INDEX email_recipients_email ON email_recipients(email_id, seq);
    CREATE TABLE email_suppressions (
      seq ${t.seqPrimaryKey},
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      address ${t.text} NOT NULL,
      reason ${t.text} NOT NULL CHECK (reason IN ('hard_bounce','complaint','unsubscribe')),
      email_id ${t.text},
      created_at ${t.bigint} NOT NULL,
      UNIQUE (account_id, address)
    );
    CREATE INDEX email_suppressions_account ON email_suppressions(account_id, created_at, seq);
    CREATE TABLE mailbox_messages (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      email_id ${t.text} NOT NULL REFERENCES emails(id),
      to_address ${t.text} NOT NULL,
      from_header ${t.text} NOT NULL,
      subject ${t.text},
      text ${t.text},
      html ${t.text},
      tags ${t.text} NOT NULL DEFAULT '[]',
      delivered_at ${t.bigint} NOT NULL
    );
    CREATE INDEX mailbox_messages_account ON mailbox_messages(account_id, seq);
    CREATE TABLE sandbox_dns (
      name ${t.text} PRIMARY KEY,
      records ${t.text} NOT NULL,
      visible_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      mode ${t.text} NOT NULL DEFAULT 'live' CHECK (mode IN ('live','test'))
    );
    CREATE TABLE email_events (
      seq ${t.seqPrimaryKey},
      email_id ${t.text} NOT NULL REFERENCES emails(id),
      recipient_seq ${t.bigint} NOT NULL REFERENCES email_recipients(seq),
      type ${t.text} NOT NULL,
      status ${t.text} NOT NULL,
      occurred_at ${t.bigint} NOT NULL,
      bounce ${t.text},
      url ${t.text},
      method ${t.text} CHECK (method IN ('link','one_click')) -- NULL passes a CHECK: only unsubscribes carry one
    );
    CREATE INDEX email_events_email ON email_events(email_id, seq);
    CREATE INDEX emails_account_domain ON emails(account_id, domain_id);
    CREATE TABLE email_reputation (
      account_id ${t.text} NOT NULL,
      hour ${t.bigint} NOT NULL,
      delivered ${t.bigint} NOT NULL DEFAULT 0,
      complained ${t.bigint} NOT NULL DEFAULT 0,
      PRIMARY KEY (account_id, hour)
    )${t.keyedStorage};
    CREATE TABLE ledger (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      kind ${t.text} NOT NULL CHECK (kind IN ('charge','credit','hold','release','refund')),
      category ${t.text},
      quantity ${t.bigint} NOT NULL DEFAULT 0,
      amount_cents ${t.bigint} NOT NULL,
      balance_after_cents ${t.bigint},
      cause ${t.text} NOT NULL,
      ref ${t.text},
      hold_id ${t.text},
      created_at ${t.bigint} NOT NULL
    );
    CREATE INDEX ledger_account ON ledger(account_id, created_at, seq);
    CREATE INDEX ledger_ref ON ledger(ref, category);
    CREATE INDEX ledger_hold ON ledger(hold_id) WHERE hold_id IS NOT NULL;
    CREATE TABLE wallets (
      account_id ${t.text} PRIMARY KEY REFERENCES accounts(id),
      balance_cents ${t.bigint} NOT NULL CHECK (balance_cents >= 0),
      auto_recharge_enabled ${t.flag} NOT NULL DEFAULT ${t.no},
      threshold_cents ${t.bigint} NOT NULL,
      recharge_amount_cents ${t.bigint} NOT NULL,
      low_balance_armed ${t.flag} NOT NULL DEFAULT ${t.yes},
      spend_limit_cents ${t.bigint} NOT NULL,
      card_token ${t.text},
      card_last4 ${t.text},
      plan ${t.text} NOT NULL DEFAULT 'free' CHECK (plan IN ('free','starter','pro')),
      subscription_status ${t.text} NOT NULL DEFAULT 'active' CHECK (subscription_status IN ('active','past_due','canceled')),
      current_period_end ${t.bigint},
      updated_at ${t.bigint} NOT NULL,
      spend_month ${t.bigint},
      spend_month_cents ${t.bigint} NOT NULL DEFAULT 0
    );
    CREATE TABLE holds (
      id ${t.text} PRIMARY KEY,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      category ${t.text} NOT NULL,
      amount_cents ${t.bigint} NOT NULL CHECK (amount_cents >= 0),
      ref ${t.text},
      status ${t.text} NOT NULL CHECK (status IN ('open','settled','released')),
      created_at ${t.bigint} NOT NULL,
      closed_at ${t.bigint}
    );
    CREATE INDEX holds_ref ON holds(ref);
    CREATE INDEX holds_open ON holds(account_id) WHERE status = 'open';
    CREATE TABLE opt_outs (
      seq ${t.seqPrimaryKey},
      id ${t.text} NOT NULL UNIQUE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id),
      number_id ${t.text},
      from_number ${t.text} NOT NULL,
      phone_number ${t.text} NOT NULL,
      keyword ${t.text} NOT NULL,
      status ${t.text} NOT NULL CHECK (status IN ('active','lifted')),
      created_at ${t.bigint} NOT NULL,
      lifted_at ${t.bigint},
      lifted_keyword ${t.text}
    );
    CREATE UNIQUE INDEX opt_outs_active_pair ON opt_outs(account_id, from_number, phone_number) WHERE status = 'active';
    CREATE INDEX opt_outs_active_list ON opt_outs(account_id, created_at, seq) WHERE status = 'active';
    -- Quoted as the rebuild that added mode left it (a snapshot compares the text).
    CREATE TABLE "idempotency_keys" (
      account_id ${t.text} NOT NULL,
      mode ${t.text} NOT NULL CHECK (mode IN ('live','test')),
      method ${t.text} NOT NULL,
      path ${t.text} NOT NULL,
      key ${t.text} NOT NULL,
      request_hash ${t.text} NOT NULL,
      state ${t.text} NOT NULL CHECK (state IN ('in_flight','done')),
      status ${t.bigint},
      body ${t.text},
      created_at ${t.bigint} NOT NULL,
      answered_at ${t.double},
      PRIMARY KEY (account_id, mode, method, path, key)
    );
    CREATE INDEX idempotency_created ON idempotency_keys(created_at);
    CREATE TABLE email_derived_texts (
      email_id ${t.text} PRIMARY KEY REFERENCES emails(id),
      text ${t.text} NOT NULL
    );
    CREATE TABLE console_sessions (
      hash ${t.text} PRIMARY KEY,
      kind ${t.text} NOT NULL CHECK (kind IN ('link','session')),
      -- A key removed (a bootstrap key re-minted after a snapshot load) takes its sessions with it.
      key_id ${t.text} NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
      account_id ${t.text} NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      subaccount_id ${t.text} REFERENCES accounts(id) ON DELETE CASCADE,
      csrf ${t.text} NOT NULL,
      created_at ${t.bigint} NOT NULL,
      expires_at ${t.bigint} NOT NULL
    );
    CREATE INDEX console_sessions_expiry ON console_sessions(expires_at);
    CREATE INDEX webhook_deliveries_leased ON webhook_deliveries(lease_until) WHERE lease_until IS NOT NULL;
`;
