import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { migrate } from './database.js';
import { KeyMode } from '../../../api/schemas/keys.js';
import { NumberStatus, NumberType } from '../../../api/schemas/numbers.js';
import { MessageChannel, MessageDirection, MessageStatus } from '../../../api/schemas/messages.js';
import { DeliveryStatus } from '../../../api/schemas/webhooks.js';
import { CALL_DIRECTIONS, CALL_MISSED_OUTCOMES, CALL_STATUSES, DEVICE_PRESENCES, TRANSCRIPT_STATUSES } from '../../../api/values/calls.js';
import { HOLD_STATUSES, LEDGER_KINDS, PLAN_NAMES, SUBSCRIPTION_STATUSES } from '../../../api/values/billing.js';
import { DOMAIN_STATUSES, EMAIL_STATUSES, RECIPIENT_KINDS, RECIPIENT_STATUSES, SUPPRESSION_REASONS, UNSUBSCRIBE_METHODS } from '../../../api/values/email.js';
import { BRAND_STATUSES, CAMPAIGN_STATUSES, CNP_SHARING_STATUSES, ENTITY_TYPES, IDENTITY_STATUSES, PORT_DOCUMENT_TYPES, PORT_STATUSES } from '../../../api/values/registration.js';
import { OPT_OUT_STATUSES } from '../../../api/values/opt-outs.js';
import { IDEMPOTENCY_STATES } from '../idempotency-repo.js';
import { CONSOLE_SESSION_KINDS } from '../../../api/values/console.js';
import { PROCESS_NOTICE_KINDS } from '../store.js';

// The migrations repeat each enum as a CHECK list (SQLite has no enum type). Every CHECK list of a
// freshly migrated database must equal the list it mirrors, so an enum cannot grow on one side only.
const MIRRORS: Record<string, readonly string[]> = {
  'api_keys.mode': KeyMode.options,
  // The mode of the key that created a record (contract §2: what a test key may change).
  'numbers.mode': KeyMode.options,
  'webhook_endpoints.mode': KeyMode.options,
  'sending_domains.mode': KeyMode.options,
  // migration 17: who added a blocklist entry, who published a sandbox DNS name.
  'blocked_numbers.mode': KeyMode.options,
  'sandbox_dns.mode': KeyMode.options,
  'brands.mode': KeyMode.options,
  'campaigns.mode': KeyMode.options,
  'ports.mode': KeyMode.options,
  'devices.mode': KeyMode.options,
  'accounts.mode': KeyMode.options,
  'idempotency_keys.mode': KeyMode.options,
  'numbers.type': NumberType.options,
  'numbers.status': NumberStatus.options,
  'messages.direction': MessageDirection.options,
  'messages.status': MessageStatus.options,
  'messages.channel': MessageChannel.options,
  'webhook_deliveries.status': DeliveryStatus.options,
  'calls.direction': CALL_DIRECTIONS,
  'calls.status': CALL_STATUSES,
  'calls.outcome': CALL_MISSED_OUTCOMES,
  'calls.mode': KeyMode.options,
  'voicemails.transcript_status': TRANSCRIPT_STATUSES,
  'devices.presence': DEVICE_PRESENCES,
  'campaigns.status': CAMPAIGN_STATUSES,
  'campaigns.cnp_sharing_status': CNP_SHARING_STATUSES,
  'brands.status': BRAND_STATUSES,
  'brands.entity_type': ENTITY_TYPES,
  'brands.identity_status': IDENTITY_STATUSES,
  'ports.status': PORT_STATUSES,
  'port_documents.type': PORT_DOCUMENT_TYPES,
  'sending_domains.status': DOMAIN_STATUSES,
  'emails.mode': KeyMode.options,
  'emails.status': EMAIL_STATUSES,
  'email_recipients.kind': RECIPIENT_KINDS,
  'email_recipients.status': RECIPIENT_STATUSES,
  'email_suppressions.reason': SUPPRESSION_REASONS,
  'email_events.method': UNSUBSCRIBE_METHODS,
  'ledger.kind': LEDGER_KINDS,
  'holds.status': HOLD_STATUSES,
  'wallets.plan': PLAN_NAMES,
  'wallets.subscription_status': SUBSCRIPTION_STATUSES,
  'opt_outs.status': OPT_OUT_STATUSES,
  // Storage-only states (not in the API): their lists live beside their repositories.
  'idempotency_keys.state': IDEMPOTENCY_STATES,
  // A one-time console link or the session it became.
  'console_sessions.kind': CONSOLE_SESSION_KINDS,
  // What a notice one process leaves for another stands for.
  'process_notices.kind': PROCESS_NOTICE_KINDS,
};

function checkLists(): Record<string, string[]> {
  const db = new Database(':memory:');
  try {
    migrate(db);
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql IS NOT NULL").all() as Array<{ name: string; sql: string }>;
    const lists: Record<string, string[]> = {};
    for (const t of tables) {
      for (const m of t.sql.matchAll(/CHECK\s*\(\s*(\w+)\s+IN\s*\(([^)]*)\)\s*\)/gi)) {
        lists[`${t.name}.${m[1]}`] = [...m[2]!.matchAll(/'([^']*)'/g)].map((v) => v[1]!);
      }
    }
    return lists;
  } finally {
    db.close();
  }
}

describe('CHECK lists in the migrations', () => {
  const lists = checkLists();

  it('finds every CHECK list, and each has a mirror', () => {
    expect(Object.keys(lists).sort()).toEqual(Object.keys(MIRRORS).sort());
  });

  it.each(Object.entries(MIRRORS))('%s equals its enum', (column, values) => {
    expect(lists[column]).toEqual([...values]);
  });
});
