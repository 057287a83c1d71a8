import { PgAccountsRepo } from './accounts-repo.js';
import { PgBlockedNumbersRepo } from './blocked-numbers-repo.js';
import { PgBrandsRepo } from './brands-repo.js';
import { PgCallsRepo } from './calls-repo.js';
import { PgCampaignsRepo } from './campaigns-repo.js';
import { PgDevicesRepo } from './devices-repo.js';
import { PgEmailsRepo } from './emails-repo.js';
import { PgEventsRepo } from './events-repo.js';
import { PgHoldsRepo } from './holds-repo.js';
import { PgIdempotencyRepo } from './idempotency-repo.js';
import { PgJobsRepo } from './jobs-repo.js';
import { PgKeysRepo } from './keys-repo.js';
import { PgConsoleSessionsRepo } from './console-sessions-repo.js';
import { PgLeadsRepo } from './leads-repo.js';
import { PgLedgerRepo } from './ledger-repo.js';
import { PgMailboxRepo } from './mailbox-repo.js';
import { PgMessagesRepo } from './messages-repo.js';
import { PgNumbersRepo } from './numbers-repo.js';
import { PgOptOutsRepo } from './opt-outs-repo.js';
import { PgPortsRepo } from './ports-repo.js';
import { PgRoutesRepo } from './routes-repo.js';
import { PgSandboxDnsRepo } from './sandbox-dns-repo.js';
import { PgSendingDomainsRepo } from './sending-domains-repo.js';
import { PgSinksRepo } from './sinks-repo.js';
import { PgServiceStateRepo } from './service-state-repo.js';
import { PgSuppressionsRepo } from './suppressions-repo.js';
import { PgUsageStatsRepo } from './usage-stats-repo.js';
import { PgVoicemailsRepo } from './voicemails-repo.js';
import { PgWalletsRepo } from './wallets-repo.js';
import { PgWebhookDeliveriesRepo } from './webhook-deliveries-repo.js';
import { PgWebhookEndpointsRepo } from './webhooks-repo.js';
import type { Sql } from './sql.js';
import type { Repositories } from '../store.js';

/**
 * The PostgreSQL engine's repositories over one pooled client's SQL runner (made once per connection
 * and reused by each of its transactions: PgStore.bind). `sender` names this replica in the
 * notifications its writes send (peers.ts).
 */
export function pgRepositories(db: Sql, sender = ''): Repositories {
  return {
    accounts: new PgAccountsRepo(db),
    blockedNumbers: new PgBlockedNumbersRepo(db),
    brands: new PgBrandsRepo(db),
    calls: new PgCallsRepo(db),
    campaigns: new PgCampaignsRepo(db),
    devices: new PgDevicesRepo(db),
    emails: new PgEmailsRepo(db),
    eventsRepo: new PgEventsRepo(db),
    holds: new PgHoldsRepo(db),
    idempotency: new PgIdempotencyRepo(db),
    jobs: new PgJobsRepo(db),
    keys: new PgKeysRepo(db),
    consoleSessions: new PgConsoleSessionsRepo(db),
    leads: new PgLeadsRepo(db),
    ledger: new PgLedgerRepo(db),
    mailbox: new PgMailboxRepo(db),
    messages: new PgMessagesRepo(db),
    numbers: new PgNumbersRepo(db),
    optOuts: new PgOptOutsRepo(db),
    ports: new PgPortsRepo(db),
    routes: new PgRoutesRepo(db),
    sandboxDns: new PgSandboxDnsRepo(db),
    sendingDomains: new PgSendingDomainsRepo(db),
    serviceState: new PgServiceStateRepo(db, sender),
    sinks: new PgSinksRepo(db),
    suppressions: new PgSuppressionsRepo(db),
    usageStats: new PgUsageStatsRepo(db),
    voicemails: new PgVoicemailsRepo(db),
    wallets: new PgWalletsRepo(db),
    webhookDeliveries: new PgWebhookDeliveriesRepo(db),
    webhookEndpoints: new PgWebhookEndpointsRepo(db),
  };
}
