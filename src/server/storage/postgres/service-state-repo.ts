import type { Sql } from './sql.js';
import type { ServiceStateRepo } from '../service-state-repo.js';

const SET = 'INSERT INTO service_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value';

/** Small key → JSON values the service keeps about itself (the clock). */
export class PgServiceStateRepo implements ServiceStateRepo {
  constructor(private readonly db: Sql) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.prepare('SELECT value FROM service_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  async set(key: string, value: unknown): Promise<void> {
    await this.db.prepare(SET).run(key, JSON.stringify(value));
  }
}
