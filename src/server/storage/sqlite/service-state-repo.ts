import type { Db } from './database.js';
import type { ServiceStateRepo } from '../service-state-repo.js';

const prepareSet = (db: Db) => db.prepare<[string, string]>('INSERT INTO service_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');

/** Small key → JSON values the service keeps about itself (the clock). */
export class SqliteServiceStateRepo implements ServiceStateRepo {
  constructor(private readonly db: Db) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = this.db.prepare('SELECT value FROM service_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  // Prepared once, on first use: a clock advance saves the clock with every job it runs.
  private setStmt: ReturnType<typeof prepareSet> | undefined;

  async set(key: string, value: unknown): Promise<void> {
    this.setStmt ??= prepareSet(this.db);
    this.setStmt.run(key, JSON.stringify(value));
  }
}
