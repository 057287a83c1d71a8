// Test support for the hosted page tests (not itself a test file): a brand row to show.
import { randomUUID } from 'node:crypto';
import type { TestService } from './helpers/service.js';

export interface BrandRow {
  legalName?: string;
  status?: string;
  fields?: Record<string, unknown>;
  pageConfig?: Record<string, unknown> | null;
  compliancePages?: Record<string, unknown> | null;
  accountId?: string;
}

/**
 * A brand as the brands module stores it (migration 8 `brands`), written with SQL: the hosted pages
 * read any brand, whatever made it.
 */
export function insertBrand(svc: TestService, b: BrandRow = {}): string {
  const id = randomUUID();
  const now = svc.now();
  svc.deps.db
    .prepare(
      `INSERT INTO brands (id, account_id, legal_name, status, fields, page_config, compliance_pages, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      id,
      b.accountId ?? svc.bootstrap.accountId,
      b.legalName ?? 'Acme Bikes LLC',
      b.status ?? 'approved',
      JSON.stringify(b.fields ?? { displayName: 'Acme Bikes', website: 'https://acmebikes.example', email: 'hello@acmebikes.example' }),
      b.pageConfig === undefined ? null : b.pageConfig && JSON.stringify(b.pageConfig),
      b.compliancePages === undefined ? null : b.compliancePages && JSON.stringify(b.compliancePages),
      now,
      now,
    );
  return id;
}

/** A urlencoded form body as a browser sends it. */
export const formBody = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
