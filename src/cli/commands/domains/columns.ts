import type { ColumnDef } from '../../../output/columns.js';

// The domains verbs' columns, shared by their definitions and run modules.

export const DOMAIN_COLUMNS = ['id', 'domain', 'status', 'createdAt', 'verifiedAt', 'lastCheckedAt'];
/**
 * The records to publish: the name and the value are what a user copies into their DNS, so they
 * wrap under their column and are never cut or left out.
 */
export const RECORD_COLUMNS: ColumnDef[] = ['type', { field: 'name', keep: 100, fit: 'wrap' }, { field: 'value', keep: 100, fit: 'wrap' }, 'purpose', 'status'];
export const DOMAIN_LIST_COLUMNS = ['id', 'domain', 'status', 'verifiedAt', 'createdAt'];
