import type { Dialect, Statements } from './statements.js';
import { asIs, json, table, type Row } from './table.js';
import type { RouteRecord, RoutesRepo } from '../routes-repo.js';

const ROUTES = table<RouteRecord>('number_routes', {
  numberId: asIs,
  accountId: asIs,
  route: json,
  greetingMedia: asIs,
  version: asIs,
  createdAt: asIs,
  updatedAt: asIs,
});

export class SqlRoutesRepo implements RoutesRepo {
  private readonly getStmt;
  private readonly upsertStmt;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    this.getStmt = db.prepare('SELECT * FROM number_routes WHERE number_id = ?');
    this.upsertStmt = db.prepare(
      `${ROUTES.insertSql()}
       ON CONFLICT (number_id) DO UPDATE SET route = excluded.route, greeting_media = excluded.greeting_media,
         version = excluded.version, updated_at = excluded.updated_at`,
    );
  }

  async get(numberId: string): Promise<RouteRecord | undefined> {
    const row = await this.getStmt.get(numberId) as Row | undefined;
    return row && ROUTES.read(row);
  }

  async getMany(numberIds: readonly string[]): Promise<Map<string, RouteRecord>> {
    const out = new Map<string, RouteRecord>();
    if (numberIds.length === 0) return out;
    const rows = await this.db
      .prepare(`SELECT * FROM number_routes WHERE number_id IN (${numberIds.map(() => '?').join(', ')})`)
      .all(...numberIds) as Row[];
    for (const r of rows.map(ROUTES.read)) out.set(r.numberId, r);
    return out;
  }

  async greetingMediaNames(): Promise<string[]> {
    return (await this.db.prepare('SELECT greeting_media FROM number_routes WHERE greeting_media IS NOT NULL').all() as Array<{ greeting_media: string }>).map(
      (r) => r.greeting_media,
    );
  }

  async save(r: RouteRecord): Promise<void> {
    await this.upsertStmt.run(...ROUTES.values(r, this.d));
  }
}
