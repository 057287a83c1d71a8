import type { SendingDomainRecord } from '../../storage/sending-domains-repo.js';

// Who holds a DNS name, and who may add a sending domain, when several accounts
// registered domains at or above it. PURE: the claims are the registered domains equal to the name
// or a parent of it (`SendingDomainsRepo.claimsOver`). The rules, also in the OpenAPI descriptions
// of POST /v1/domains and PUT|DELETE /v1/sandbox/dns/{name}:
//
// - A domain is *proven* once verified (ever: a degraded one keeps its zone while it is repaired). A
//   pending claim proves nothing: anyone may register any name, so it must never lock the account
//   that proved a domain out of the names under it.
// - The sandbox DNS of a name is written by the account holding the longest proven domain at or
//   above it; with none, the longest pending one; with no claim at all, by anyone (a tenant sets up
//   its zone before adding the domain). So a pending parent registered by another account does not
//   take a verified domain's records (its `_dmarc`) away, nor block a new domain under that parent
//   from verifying: the new, longer claim holds its own names.
// - A name may be added unless it is, or is under, a domain another account proved (409), the
//   longest proven claim deciding (a domain proven by the caller under one proven by another is the
//   caller's). The name itself registered by another account is 409 too (spec: a domain belongs to
//   one account), except when that claim was never verified and the caller proved a domain above
//   it: the pending claim is released (`domain.expired` to its account) and the name is the caller's.

/** The rules above, as the OpenAPI descriptions of the domain and sandbox DNS routes say them. */
export const ZONE_RULES_TEXT = [
  'Zones: a domain is proven once verified (a degraded one stays proven). A name may be added unless it is, or is',
  'under, a domain another account proved (409 `conflict`; the longest proven domain decides). Another account\'s pending',
  'claim of the name itself is 409 too, unless the caller proved a domain above it: the pending claim is then released',
  '(`domain.expired` to its account) and the name is added. The sandbox DNS of a name is written by the account holding the',
  'longest proven domain at or above it, else the longest pending one; any other account is 403 `forbidden`; a name no',
  'account registered is anyone\'s. So a pending claim never locks an account out of names under a domain it verified.',
].join('\n');

type Claim = Pick<SendingDomainRecord, 'accountId' | 'domain' | 'everVerified'>;

const longest = <T extends Claim>(claims: readonly T[]): T | undefined =>
  claims.reduce<T | undefined>((best, c) => (best === undefined || c.domain.length > best.domain.length ? c : best), undefined);

/** The longest domain at or above the name that was ever verified. */
export const provenClaim = <T extends Claim>(claims: readonly T[]): T | undefined => longest(claims.filter((c) => c.everVerified));

/** Whose the sandbox DNS of the name is: the longest proven claim, else the longest pending one; undefined: anyone's. */
export const zoneHolder = <T extends Claim>(claims: readonly T[]): T | undefined => provenClaim(claims) ?? longest(claims);

/** What adding the name means for `accountId`. */
export type AddVerdict =
  | { ok: true; release?: undefined }
  /** The name is another account's pending claim under a domain the caller proved: it is released first. */
  | { ok: true; release: Claim }
  | { ok: false; reason: 'own' | 'taken' | 'under_proven'; by: Claim };

export function mayAdd<T extends Claim>(accountId: string, name: string, claims: readonly T[]): AddVerdict {
  const proven = provenClaim(claims);
  const exact = claims.find((c) => c.domain === name);
  if (exact && exact.accountId === accountId) return { ok: false, reason: 'own', by: exact };
  if (proven && proven.accountId !== accountId) return { ok: false, reason: proven === exact ? 'taken' : 'under_proven', by: proven };
  if (!exact) return { ok: true };
  // Another account's claim of the name itself, never verified (a verified one is `proven` above).
  if (proven && proven.accountId === accountId) return { ok: true, release: exact };
  return { ok: false, reason: 'taken', by: exact };
}
