import { SqliteAccountsRepo } from './accounts-repo.js';
import { SqliteBlockedNumbersRepo } from './blocked-numbers-repo.js';
import { SqliteBrandsRepo } from './brands-repo.js';
import { SqliteCallsRepo } from './calls-repo.js';
import { SqliteCampaignsRepo } from './campaigns-repo.js';
import { SqliteConsoleSessionsRepo } from './console-sessions-repo.js';
import { SqliteDevicesRepo } from './devices-repo.js';
import { SqliteEmailsRepo } from './emails-repo.js';
import { SqliteEventsRepo } from './events-repo.js';
import { SqliteHoldsRepo } from './holds-repo.js';
import { SqliteIdempotencyRepo } from './idempotency-repo.js';
import { SqliteJobsRepo } from './jobs-repo.js';
import { SqliteKeysRepo } from './keys-repo.js';
import { SqliteLeadsRepo } from './leads-repo.js';
import { SqliteLedgerRepo } from './ledger-repo.js';
import { SqliteMailboxRepo } from './mailbox-repo.js';
import { SqliteMessagesRepo } from './messages-repo.js';
import { SqliteNumbersRepo } from './numbers-repo.js';
import { SqliteOptOutsRepo } from './opt-outs-repo.js';
import { SqlitePortsRepo } from './ports-repo.js';
import { SqliteRoutesRepo } from './routes-repo.js';
import { SqliteSandboxDnsRepo } from './sandbox-dns-repo.js';
import { SqliteSendingDomainsRepo } from './sending-domains-repo.js';
import { SqliteSinksRepo } from './sinks-repo.js';
import { SqliteServiceStateRepo } from './service-state-repo.js';
import { SqliteSuppressionsRepo } from './suppressions-repo.js';
import { SqliteUsageStatsRepo } from './usage-stats-repo.js';
import { SqliteVoicemailsRepo } from './voicemails-repo.js';
import { SqliteWalletsRepo } from './wallets-repo.js';
import { SqliteWebhookDeliveriesRepo } from './webhook-deliveries-repo.js';
import { SqliteWebhookEndpointsRepo } from './webhooks-repo.js';
import type { Db } from './database.js';
import type { Repositories } from '../store.js';

/** The SQLite engine's repositories, over its one connection (prepared statements are built once). */
export function sqliteRepositories(db: Db): Repositories {
  const accounts = new SqliteAccountsRepo(db);
  return {
    accounts,
    blockedNumbers: new SqliteBlockedNumbersRepo(db),
    brands: new SqliteBrandsRepo(db),
    calls: new SqliteCallsRepo(db),
    campaigns: new SqliteCampaignsRepo(db),
    consoleSessions: new SqliteConsoleSessionsRepo(db),
    devices: new SqliteDevicesRepo(db),
    emails: new SqliteEmailsRepo(db),
    eventsRepo: new SqliteEventsRepo(db),
    holds: new SqliteHoldsRepo(db),
    idempotency: new SqliteIdempotencyRepo(db),
    jobs: new SqliteJobsRepo(db),
    keys: new SqliteKeysRepo(db, accounts),
    leads: new SqliteLeadsRepo(db),
    ledger: new SqliteLedgerRepo(db),
    mailbox: new SqliteMailboxRepo(db),
    messages: new SqliteMessagesRepo(db),
    numbers: new SqliteNumbersRepo(db),
    optOuts: new SqliteOptOutsRepo(db),
    ports: new SqlitePortsRepo(db),
    routes: new SqliteRoutesRepo(db),
    sandboxDns: new SqliteSandboxDnsRepo(db),
    sendingDomains: new SqliteSendingDomainsRepo(db),
    serviceState: new SqliteServiceStateRepo(db),
    sinks: new SqliteSinksRepo(db),
    suppressions: new SqliteSuppressionsRepo(db),
    usageStats: new SqliteUsageStatsRepo(db),
    voicemails: new SqliteVoicemailsRepo(db),
    wallets: new SqliteWalletsRepo(db),
    webhookDeliveries: new SqliteWebhookDeliveriesRepo(db),
    webhookEndpoints: new SqliteWebhookEndpointsRepo(db),
  };
}
