import { SqlAccountsRepo } from '../shared/accounts-repo.js';
import { SqlBlockedNumbersRepo } from '../shared/blocked-numbers-repo.js';
import { SqlBrandsRepo } from '../shared/brands-repo.js';
import { SqlCallsRepo } from '../shared/calls-repo.js';
import { SqlCampaignsRepo } from '../shared/campaigns-repo.js';
import { SqlDevicesRepo } from '../shared/devices-repo.js';
import { SqlEmailsRepo } from '../shared/emails-repo.js';
import { PgEventsRepo } from './events-repo.js';
import { SqlHoldsRepo } from '../shared/holds-repo.js';
import { PgIdempotencyRepo } from './idempotency-repo.js';
import { SqlJobsRepo } from '../shared/jobs-repo.js';
import { PgKeysRepo } from './keys-repo.js';
import { SqlConsoleSessionsRepo } from '../shared/console-sessions-repo.js';
import { SqlLeadsRepo } from '../shared/leads-repo.js';
import { SqlLedgerRepo } from '../shared/ledger-repo.js';
import { SqlMailboxRepo } from '../shared/mailbox-repo.js';
import { SqlMessagesRepo } from '../shared/messages-repo.js';
import { SqlNumbersRepo } from '../shared/numbers-repo.js';
import { SqlOptOutsRepo } from '../shared/opt-outs-repo.js';
import { SqlPortsRepo } from '../shared/ports-repo.js';
import { SqlRoutesRepo } from '../shared/routes-repo.js';
import { SqlSandboxDnsRepo } from '../shared/sandbox-dns-repo.js';
import { SqlSendingDomainsRepo } from '../shared/sending-domains-repo.js';
import { SqlSinksRepo } from '../shared/sinks-repo.js';
import { PgServiceStateRepo } from './service-state-repo.js';
import { SqlSuppressionsRepo } from '../shared/suppressions-repo.js';
import { SqlUsageStatsRepo } from '../shared/usage-stats-repo.js';
import { SqlVoicemailsRepo } from '../shared/voicemails-repo.js';
import { SqlWalletsRepo } from '../shared/wallets-repo.js';
import { SqlWebhookDeliveriesRepo } from '../shared/webhook-deliveries-repo.js';
import { SqlWebhookEndpointsRepo } from '../shared/webhooks-repo.js';
import type { Sql } from './sql.js';
import type { Repositories } from '../store.js';
import { pgDialect } from './dialect.js';

/**
 * The PostgreSQL engine's repositories over one pooled client's SQL runner (made once per connection
 * and reused by each of its transactions: PgStore.bind). `sender` names this replica in the
 * notifications its writes send (peers.ts).
 */
export function pgRepositories(db: Sql, sender = ''): Repositories {
  const accounts = new SqlAccountsRepo(db, pgDialect);
  return {
    accounts,
    blockedNumbers: new SqlBlockedNumbersRepo(db, pgDialect),
    brands: new SqlBrandsRepo(db, pgDialect),
    calls: new SqlCallsRepo(db),
    campaigns: new SqlCampaignsRepo(db, pgDialect),
    devices: new SqlDevicesRepo(db),
    emails: new SqlEmailsRepo(db),
    eventsRepo: new PgEventsRepo(db),
    holds: new SqlHoldsRepo(db),
    idempotency: new PgIdempotencyRepo(db),
    jobs: new SqlJobsRepo(db, pgDialect),
    keys: new PgKeysRepo(db, accounts),
    consoleSessions: new SqlConsoleSessionsRepo(db),
    leads: new SqlLeadsRepo(db, pgDialect),
    ledger: new SqlLedgerRepo(db),
    mailbox: new SqlMailboxRepo(db, pgDialect),
    messages: new SqlMessagesRepo(db, pgDialect),
    numbers: new SqlNumbersRepo(db, pgDialect),
    optOuts: new SqlOptOutsRepo(db, pgDialect),
    ports: new SqlPortsRepo(db, pgDialect),
    routes: new SqlRoutesRepo(db),
    sandboxDns: new SqlSandboxDnsRepo(db),
    sendingDomains: new SqlSendingDomainsRepo(db, pgDialect),
    serviceState: new PgServiceStateRepo(db, sender),
    sinks: new SqlSinksRepo(db, pgDialect),
    suppressions: new SqlSuppressionsRepo(db),
    usageStats: new SqlUsageStatsRepo(db),
    voicemails: new SqlVoicemailsRepo(db),
    wallets: new SqlWalletsRepo(db, pgDialect),
    webhookDeliveries: new SqlWebhookDeliveriesRepo(db, pgDialect),
    webhookEndpoints: new SqlWebhookEndpointsRepo(db, pgDialect),
  };
}
