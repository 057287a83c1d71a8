import { SqlAccountsRepo } from './accounts-repo.js';
import { SqlBlockedNumbersRepo } from './blocked-numbers-repo.js';
import { SqlBrandsRepo } from './brands-repo.js';
import { SqlCallsRepo } from './calls-repo.js';
import { SqlCampaignsRepo } from './campaigns-repo.js';
import { SqlConsoleSessionsRepo } from './console-sessions-repo.js';
import { SqlDevicesRepo } from './devices-repo.js';
import { SqlEmailsRepo } from './emails-repo.js';
import { SqlEventsRepo } from './events-repo.js';
import { SqlHoldsRepo } from './holds-repo.js';
import { SqlIdempotencyRepo } from './idempotency-repo.js';
import { SqlJobsRepo } from './jobs-repo.js';
import { SqlKeysRepo } from './keys-repo.js';
import { SqlLeadsRepo } from './leads-repo.js';
import { SqlLedgerRepo } from './ledger-repo.js';
import { SqlMailboxRepo } from './mailbox-repo.js';
import { SqlMessagesRepo } from './messages-repo.js';
import { SqlNumbersRepo } from './numbers-repo.js';
import { SqlOptOutsRepo } from './opt-outs-repo.js';
import { SqlPortsRepo } from './ports-repo.js';
import { SqlRoutesRepo } from './routes-repo.js';
import { SqlSandboxDnsRepo } from './sandbox-dns-repo.js';
import { SqlSendingDomainsRepo } from './sending-domains-repo.js';
import { SqlServiceStateRepo } from './service-state-repo.js';
import { SqlSinksRepo } from './sinks-repo.js';
import { SqlSuppressionsRepo } from './suppressions-repo.js';
import { SqlUsageStatsRepo } from './usage-stats-repo.js';
import { SqlVoicemailsRepo } from './voicemails-repo.js';
import { SqlWalletsRepo } from './wallets-repo.js';
import { SqlWebhookDeliveriesRepo } from './webhook-deliveries-repo.js';
import { SqlWebhookEndpointsRepo } from './webhooks-repo.js';
import type { Dialect, Statements } from './statements.js';
import type { Repositories } from '../store.js';

/** The repositories an engine writes itself where its SQL truly differs (each says why in its own file). */
export type EngineRepositories = (shared: { accounts: SqlAccountsRepo }) => Partial<Repositories>;

/**
 * Every family's repository over one engine's statements and dialect: the one list a new family
 * joins. Built once per connection (SQLite's one, each pooled PostgreSQL client's); an engine's own
 * repositories, where it has any, take the place of the shared ones.
 */
export function sqlRepositories(db: Statements, d: Dialect, own: EngineRepositories = () => ({})): Repositories {
  const accounts = new SqlAccountsRepo(db, d);
  const engine = own({ accounts });
  return {
    accounts,
    blockedNumbers: new SqlBlockedNumbersRepo(db, d),
    brands: new SqlBrandsRepo(db, d),
    calls: new SqlCallsRepo(db, d),
    campaigns: new SqlCampaignsRepo(db, d),
    consoleSessions: new SqlConsoleSessionsRepo(db, d),
    devices: new SqlDevicesRepo(db, d),
    emails: new SqlEmailsRepo(db, d),
    eventsRepo: engine.eventsRepo ?? new SqlEventsRepo(db, d),
    holds: new SqlHoldsRepo(db, d),
    idempotency: engine.idempotency ?? new SqlIdempotencyRepo(db, d),
    jobs: new SqlJobsRepo(db, d),
    keys: engine.keys ?? new SqlKeysRepo(db, d, accounts),
    leads: new SqlLeadsRepo(db, d),
    ledger: new SqlLedgerRepo(db, d),
    mailbox: new SqlMailboxRepo(db, d),
    messages: new SqlMessagesRepo(db, d),
    numbers: new SqlNumbersRepo(db, d),
    optOuts: new SqlOptOutsRepo(db, d),
    ports: new SqlPortsRepo(db, d),
    routes: new SqlRoutesRepo(db, d),
    sandboxDns: new SqlSandboxDnsRepo(db, d),
    sendingDomains: new SqlSendingDomainsRepo(db, d),
    serviceState: engine.serviceState ?? new SqlServiceStateRepo(db, d),
    sinks: new SqlSinksRepo(db, d),
    suppressions: new SqlSuppressionsRepo(db, d),
    usageStats: new SqlUsageStatsRepo(db, d),
    voicemails: new SqlVoicemailsRepo(db, d),
    wallets: new SqlWalletsRepo(db, d),
    webhookDeliveries: new SqlWebhookDeliveriesRepo(db, d),
    webhookEndpoints: new SqlWebhookEndpointsRepo(db, d),
  };
}
