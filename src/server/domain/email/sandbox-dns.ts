import type { Clock } from '../../clock.js';
import type { UnitOfWork } from '../deps.js';
import type { SandboxDnsRepo } from '../../storage/sandbox-dns-repo.js';
import type { SendingDomainsRepo } from '../../storage/sending-domains-repo.js';
import type { Actor } from '../actor.js';
import type { SandboxDnsBody } from '../../../api/schemas/email.js';
import { HOSTNAME_LIMITS } from '../../../api/values/email.js';
import { normalizeDnsName, type SandboxDnsEntry } from '../../world/dns.js';
import { ServiceError, notFound, validationError } from '../../errors.js';
import { zoneHolder } from './zone-claims.js';
import { assertMayChange } from '../test-keys.js';

// contract §9: `PUT /v1/sandbox/dns/{name}` publishes records (replacing the name's), visible after
// `visibleAfterSecs` of service clock; `DELETE` removes the name (it then answers missing). The table is
// the sandbox's whole DNS, shared by every account, as real DNS is.

export interface SandboxDnsDeps {
  uow: UnitOfWork;
  clock: Clock;
  sandboxDns: SandboxDnsRepo;
  sendingDomains: Pick<SendingDomainsRepo, 'claimsOver'>;
}

// DNS names in the table may carry underscores (`_dmarc`, `_domainkey`): service labels, not hostnames.
const DNS_LABEL = /^[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?$/;

/** The name as the table keys it, or a validation_error on `["params","name"]`. */
function tableName(raw: string): string {
  const name = normalizeDnsName(raw);
  const labels = name.split('.');
  const bad =
    name.length === 0 ||
    name.length > HOSTNAME_LIMITS.nameChars ||
    labels.some((l) => l.length === 0 || l.length > HOSTNAME_LIMITS.labelChars || !DNS_LABEL.test(l));
  if (bad) {
    throw validationError(['params', 'name'], `must be a DNS name (labels of 1-${HOSTNAME_LIMITS.labelChars} letters, digits, hyphens or underscores; at most ${HOSTNAME_LIMITS.nameChars} characters)`);
  }
  return name;
}

/**
 * The table is everyone's DNS, but in the world only a domain's
 * owner edits its zone. A name's records are the account's holding the longest verified domain at or
 * above it, else the longest pending one (`zone-claims.ts`, where the rules are written out); another
 * account is refused (403). Reading stays open, as DNS is public. A name no account registered is
 * anyone's (a tenant sets up its zone before adding the domain).
 *
 * contract §2, decision: the table is service-wide, but what a test key may change in it
 * follows the test-key rule like any record: a test key may publish and remove names for its own
 * test work — a name no domain holds, or one in the zone of a domain its account added with a test
 * key — unless a live key published the name's current entry. A name in the zone of a domain added
 * with a live key, and an entry a live key published (a tenant's records set up before its domain
 * is added), are a live key's: a leaked test key must not fail a live domain's verification. A name
 * keeps the mode of the key that last published it (migration 17). Call inside the write's transaction.
 */
async function assertMayEdit(deps: Pick<SandboxDnsDeps, 'sendingDomains' | 'sandboxDns'>, actor: Actor, name: string): Promise<void> {
  const holder = zoneHolder(await deps.sendingDomains.claimsOver(name));
  if (holder && holder.accountId !== actor.account.id) {
    const how = holder.everVerified ? 'verified' : 'registered';
    throw new ServiceError('forbidden', `${name} is in the zone of ${holder.domain}, a sending domain another account ${how}; only that account may change its records`);
  }
  if (holder) assertMayChange(actor, holder.mode, `the domain ${holder.domain}, whose zone holds ${name},`);
  const publishedWith = await deps.sandboxDns.publishedWith(name);
  if (publishedWith) assertMayChange(actor, publishedWith, `the DNS entry of ${name}`);
}

export async function putSandboxDns(deps: SandboxDnsDeps, actor: Actor, rawName: string, body: SandboxDnsBody): Promise<SandboxDnsEntry> {
  const name = tableName(rawName);
  const now = deps.clock.nowMs();
  const entry: SandboxDnsEntry = {
    name,
    records: body.records.map((r) => ({ type: r.type, value: r.value.trim() })),
    visibleAt: now + (body.visibleAfterSecs ?? 0) * 1000,
    updatedAt: now,
  };
  await deps.uow.write(async (tx) => {
    await assertMayEdit(tx, actor, name);
    await tx.sandboxDns.put(entry, actor.mode);
  });
  return entry;
}

export async function getSandboxDns(deps: Pick<SandboxDnsDeps, 'sandboxDns'>, _actor: Actor, rawName: string): Promise<SandboxDnsEntry> {
  const entry = await deps.sandboxDns.get(tableName(rawName));
  if (!entry) throw notFound('DNS name');
  return entry;
}

/** Decision: deleting a name that has no entry is 404, like every other DELETE of something absent. */
export async function deleteSandboxDns(deps: SandboxDnsDeps, actor: Actor, rawName: string): Promise<void> {
  const name = tableName(rawName);
  const gone = await deps.uow.write(async (tx) => {
    await assertMayEdit(tx, actor, name);
    return tx.sandboxDns.delete(name);
  });
  if (!gone) throw notFound('DNS name');
}
