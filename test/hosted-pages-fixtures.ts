// Test support for the hosted page tests (not itself a test file): a brand made through the API.
import { expect } from 'vitest';
import type { TestService } from './helpers/service.js';
import { setBrandDraft } from './helpers/inspect.js';

export interface BrandInput {
  legalName?: string;
  /** 'approved' (a mock brand, at once), 'submitted', 'rejected' (the sandbox verdict) or 'draft'. */
  status?: 'approved' | 'submitted' | 'rejected' | 'draft';
  /** Registration fields besides legalName; default a display name, website and email. */
  fields?: Record<string, unknown>;
  pageConfig?: Record<string, unknown> | null;
  compliancePages?: Record<string, unknown> | null;
  /** A sub-account of the bootstrap agency to own the brand. */
  subaccountId?: string;
}

export const DEFAULT_FIELDS = { displayName: 'Acme Bikes', website: 'https://acmebikes.example', email: 'hello@acmebikes.example' };

/**
 * A brand through `POST /v1/brands` and its page through `PATCH /v1/brands/{id}`, as a business
 * would make them; returns the brand as the API answers it (with `complianceUrls`).
 */
export async function createBrand(svc: TestService, b: BrandInput = {}): Promise<any> {
  const headers: Record<string, string> = b.subaccountId ? { 'Service-Subaccount': b.subaccountId } : {};
  const status = b.status ?? 'approved';
  const created = await svc.call('POST', '/v1/brands', {
    headers,
    body: { legalName: b.legalName ?? 'Acme Bikes LLC', ...(b.fields ?? DEFAULT_FIELDS), mock: status === 'approved' },
  });
  expect(created.status, created.text).toBe(201);
  let brand = created.body;
  if (status === 'rejected') {
    const d = await svc.call('POST', `/v1/sandbox/brands/${brand.id}/decision`, { headers, body: { decision: 'rejected' } });
    expect(d.status, d.text).toBe(200);
  }
  // The API never makes a draft brand by itself; the status is the only thing set in storage.
  if (status === 'draft') await setBrandDraft(svc, brand.id);
  if (b.pageConfig !== undefined || b.compliancePages !== undefined) {
    const patched = await svc.call('PATCH', `/v1/brands/${brand.id}`, { headers, body: { pageConfig: b.pageConfig, compliancePages: b.compliancePages } });
    expect(patched.status, patched.text).toBe(200);
    brand = patched.body;
  }
  return brand;
}

/** The id of a new brand (see createBrand). */
export const brandId = async (svc: TestService, b: BrandInput = {}): Promise<string> => (await createBrand(svc, b)).id;

/** A urlencoded form body as a browser sends it. */
export const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
