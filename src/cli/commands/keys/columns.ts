import type { ColumnDef } from '../../../output/columns.js';

/** The prefix (`sk_live_z6XS`) is what tells two keys apart on a screen: never cut. */
export const KEY_LIST_COLUMNS: ColumnDef[] = ['id', 'name', 'mode', { field: 'prefix', keep: 45, fit: 'whole' }, 'createdAt', 'lastUsedAt', 'revokedAt'];

/** What `keys create` prints: the key itself, once. */
export const CREATED_KEY_FIELDS = ['id', 'name', 'mode', 'prefix', 'key', 'createdAt'];

/** What `keys get` prints: the key's public fields, in the order a person reads them. */
export const KEY_COLUMNS = ['id', 'name', 'mode', 'prefix', 'createdAt', 'lastUsedAt', 'revokedAt'];
