import type { Db } from './database.js';

const prepareSet = (db: Db) => db.prepare<[string, string]>('INSERT INTO service_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');

/** Small key → JSON values the service keeps about itself (the clock). */
export class ServiceStateRepo {
  constructor(private readonly db: Db) {}

  get<T>(key: string): T | undefined {
    const row = this.db.prepare('SELECT value FROM service_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  // Prepared once, on first use: a clock advance saves the clock with every job it runs (issue 23).
  private setStmt: ReturnType<typeof prepareSet> | undefined;

  set(key: string, value: unknown): void {
    this.setStmt ??= prepareSet(this.db);
    this.setStmt.run(key, JSON.stringify(value));
  }
}

/** The key the service clock is saved under as an advance moves it (restored at start). */
export const CLOCK_STATE_KEY = 'clock';
