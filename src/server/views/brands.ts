import { iso } from '../clock.js';
import type { BrandRecord } from '../storage/brands-repo.js';
import type { Brand, PageConfig } from '../../api/schemas/brands.js';
import { HOSTED_PAGE_PATHS } from '../../api/values/registration.js';
import { compliancePagesOf } from '../domain/registration/brands.js';

// Records → API shapes for brands (spec: Brand). Rules for reads: views/README.md.

/** spec: Brand — `complianceUrls`, absolute on the address the caller used (contract §7). */
export const complianceUrlsOf = (brandId: string, origin: string) => ({
  optInUrl: origin + HOSTED_PAGE_PATHS.optIn(brandId),
  privacyUrl: origin + HOSTED_PAGE_PATHS.privacy(brandId),
  messagingTermsUrl: origin + HOSTED_PAGE_PATHS.messagingTerms(brandId),
});

/**
 * A brand as the API shows it. spec: `complianceUrls` is present on reads, creates and updates
 * (give `origin`) and omitted on resubmit, vetting and registration responses (omit it).
 * `compliancePages` shows what the hosted pages say: the brand's own texts or the generated ones.
 */
export function brandView(b: BrandRecord, origin?: string): Brand {
  const f = b.fields;
  const s = (v: string | null | undefined): string | null => v ?? null;
  return {
    id: b.id,
    tenantId: b.accountId,
    legalName: b.legalName,
    displayName: s(f.displayName),
    ein: s(f.ein),
    website: s(f.website),
    vertical: s(f.vertical),
    status: b.status,
    tcrBrandId: b.tcrBrandId,
    mock: b.mock,
    entityType: b.entityType,
    einIssuingCountry: s(f.einIssuingCountry),
    email: s(f.email),
    phone: s(f.phone),
    street: s(f.street),
    city: s(f.city),
    state: s(f.state),
    postalCode: s(f.postalCode),
    country: s(f.country),
    businessContactEmail: s(f.businessContactEmail),
    stockSymbol: s(f.stockSymbol),
    stockExchange: s(f.stockExchange),
    altBusinessId: s(f.altBusinessId),
    altBusinessIdType: s(f.altBusinessIdType),
    brandRelationship: (f.brandRelationship ?? null) as Brand['brandRelationship'],
    identityStatus: b.identityStatus as Brand['identityStatus'],
    vettingProvider: b.vettingProvider,
    vettingClass: b.vettingClass,
    vettingScore: b.vettingScore,
    carrierSuspended: b.carrierSuspended,
    compliancePages: compliancePagesOf(b),
    pageConfig: b.pageConfig as PageConfig | null,
    ...(origin === undefined ? {} : { complianceUrls: complianceUrlsOf(b.id, origin) }),
    rejectionReason: b.rejectionReason,
    createdAt: iso(b.createdAt),
    updatedAt: iso(b.updatedAt),
  };
}
