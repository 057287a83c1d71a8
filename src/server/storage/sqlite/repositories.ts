import { SqlAccountsRepo } from '../shared/accounts-repo.js';
import { SqlBlockedNumbersRepo } from '../shared/blocked-numbers-repo.js';
import { SqlBrandsRepo } from '../shared/brands-repo.js';
import { SqlCallsRepo } from '../shared/calls-repo.js';
import { SqlCampaignsRepo } from '../shared/campaigns-repo.js';
import { SqlConsoleSessionsRepo } from '../shared/console-sessions-repo.js';
import { SqlDevicesRepo } from '../shared/devices-repo.js';
import { SqlEmailsRepo } from '../shared/emails-repo.js';
import { SqlEventsRepo } from '../shared/events-repo.js';
import { SqlHoldsRepo } from '../shared/holds-repo.js';
import { SqlIdempotencyRepo } from '../shared/idempotency-repo.js';
import { SqlJobsRepo } from '../shared/jobs-repo.js';
import { SqlKeysRepo } from '../shared/keys-repo.js';
import { ReadCache } from './read-cache.js';
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
import { SqlServiceStateRepo } from '../shared/service-state-repo.js';
import { SqlSuppressionsRepo } from '../shared/suppressions-repo.js';
import { SqlUsageStatsRepo } from '../shared/usage-stats-repo.js';
import { SqlVoicemailsRepo } from '../shared/voicemails-repo.js';
import { SqlWalletsRepo } from '../shared/wallets-repo.js';
import { SqlWebhookDeliveriesRepo } from '../shared/webhook-deliveries-repo.js';
import { SqlWebhookEndpointsRepo } from '../shared/webhooks-repo.js';
import type { Db } from './database.js';
import type { Repositories } from '../store.js';
import { sqliteDialect } from './dialect.js';

/** The SQLite engine's repositories, over its one connection (prepared statements are built once). */
export function sqliteRepositories(db: Db): Repositories {
  // Keys and accounts are read by every request: held between transactions (read-cache.ts).
  const accounts = new SqlAccountsRepo(db, sqliteDialect, new ReadCache());
  return {
    accounts,
    blockedNumbers: new SqlBlockedNumbersRepo(db, sqliteDialect),
    brands: new SqlBrandsRepo(db, sqliteDialect),
    calls: new SqlCallsRepo(db),
    campaigns: new SqlCampaignsRepo(db, sqliteDialect),
    consoleSessions: new SqlConsoleSessionsRepo(db),
    devices: new SqlDevicesRepo(db),
    emails: new SqlEmailsRepo(db),
    eventsRepo: new SqlEventsRepo(db, sqliteDialect),
    holds: new SqlHoldsRepo(db),
    idempotency: new SqlIdempotencyRepo(db, sqliteDialect),
    jobs: new SqlJobsRepo(db, sqliteDialect),
    keys: new SqlKeysRepo(db, sqliteDialect, accounts, new ReadCache()),
    leads: new SqlLeadsRepo(db, sqliteDialect),
    ledger: new SqlLedgerRepo(db),
    mailbox: new SqlMailboxRepo(db, sqliteDialect),
    messages: new SqlMessagesRepo(db, sqliteDialect),
    numbers: new SqlNumbersRepo(db, sqliteDialect),
    optOuts: new SqlOptOutsRepo(db, sqliteDialect),
    ports: new SqlPortsRepo(db, sqliteDialect),
    routes: new SqlRoutesRepo(db),
    sandboxDns: new SqlSandboxDnsRepo(db),
    sendingDomains: new SqlSendingDomainsRepo(db, sqliteDialect),
    serviceState: new SqlServiceStateRepo(db),
    sinks: new SqlSinksRepo(db, sqliteDialect),
    suppressions: new SqlSuppressionsRepo(db),
    usageStats: new SqlUsageStatsRepo(db),
    voicemails: new SqlVoicemailsRepo(db),
    wallets: new SqlWalletsRepo(db, sqliteDialect),
    webhookDeliveries: new SqlWebhookDeliveriesRepo(db, sqliteDialect),
    webhookEndpoints: new SqlWebhookEndpointsRepo(db, sqliteDialect),
  };
}
