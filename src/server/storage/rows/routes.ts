// The routes family's rows as both engines store them, and their records: one codec for SQLite and
// PostgreSQL.
import type { StoredRoute, RouteRecord } from '../routes-repo.js';

export interface RouteRow {
  number_id: string;
  account_id: string;
  route: string | null;
  greeting_media: string | null;
  version: number;
  created_at: number;
  updated_at: number;
}

export const toRecord = (r: RouteRow): RouteRecord => ({
  numberId: r.number_id,
  accountId: r.account_id,
  route: r.route === null ? null : (JSON.parse(r.route) as StoredRoute),
  greetingMedia: r.greeting_media,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});
