// What a snapshot from someone else may bring. Its data is only data, but two kinds of row
// give power: an API key (whoever minted it knows the secret, and after the load it would open this
// service) and a webhook endpoint (after the load, this service's events, message bodies included,
// would be sent to it, and a decision webhook signs with an endpoint's secret). Loading a snapshot
// must not make this data directory trust anything it did not trust already, so unless the user says
// the snapshot is theirs (`--trust-snapshot`):
// - a key survives only if this data directory's current data has the same key (hash) active for
//   the same account; the bootstrap keys are made valid afterwards (ensureBootstrapKeys); every other
//   key of the snapshot is revoked (kept, visibly, in `svc keys list`);
// - an enabled endpoint stays enabled only if it points at this machine (loopback: what it gets stays
//   here, and a team's seed snapshot keeps delivering to the receiver on localhost) or at a URL an
//   enabled endpoint of the current data already sends to; every other one is disabled with
//   disabledReason `untrusted_snapshot` (its scheduled deliveries abandoned; the user re-enables it).
// A snapshot saved by this data directory and loaded back passes unchanged, short of keys revoked
// and endpoints removed since it was saved, which stay so.
import { disableEndpoint } from './domain/webhooks/endpoints.js';
import { isLoopbackUrl } from './domain/webhooks/url-safety.js';
import type { ServiceDeps } from './deps.js';
import { accessIn } from './storage/sqlite/snapshots.js';

export const UNTRUSTED_SNAPSHOT_REASON = 'untrusted_snapshot';

/** What the data directory trusts before a load: its active keys (hash and account), its enabled endpoints' URLs. */
export interface TrustedBefore {
  keys: Set<string>;
  webhookUrls: Set<string>;
}

const keyOf = (hash: string, accountId: string) => `${hash} ${accountId}`;

/**
 * Read from the current svc.db before it is replaced (the service is stopped). No database, or one
 * that cannot be read, trusts nothing: the snapshot's keys are all revoked, the safe way to be wrong.
 */
export function trustedBefore(dbFile: string): TrustedBefore {
  const access = accessIn(dbFile);
  return { keys: new Set(access.keys.map((k) => keyOf(k.hash, k.accountId))), webhookUrls: new Set(access.webhookUrls) };
}

export interface SettledTrust {
  revokedKeys: number;
  disabledEndpoints: number;
}

/**
 * Revokes the loaded snapshot's keys and disables its endpoints that the data directory did not
 * trust before (see the top of this file), in one transaction. `bootstrapHashes` are left to
 * ensureBootstrapKeys, which makes them valid on the right account.
 */
export async function settleSnapshotTrust(deps: ServiceDeps, trusted: TrustedBefore, bootstrapHashes: ReadonlySet<string>): Promise<SettledTrust> {
  return deps.uow.write(async (tx) => {
    const now = tx.clock.nowMs();
    const settled: SettledTrust = { revokedKeys: 0, disabledEndpoints: 0 };
    for (const k of await tx.keys.all()) {
      if (k.revokedAt !== null || bootstrapHashes.has(k.hash) || trusted.keys.has(keyOf(k.hash, k.accountId))) continue;
      await tx.keys.revoke(k.id, now);
      settled.revokedKeys++;
    }
    for (const e of await tx.webhookEndpoints.listEnabled()) {
      if (isLoopbackUrl(e.url) || trusted.webhookUrls.has(e.url)) continue;
      await disableEndpoint(tx, e, UNTRUSTED_SNAPSHOT_REASON, now, false);
      settled.disabledEndpoints++;
    }
    return settled;
  });
}
