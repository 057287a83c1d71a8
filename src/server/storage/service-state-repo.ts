import type { Db } from './database.js';

/** Small key → JSON values the service keeps about itself (the clock). */
export class ServiceStateRepo {
  constructor(private readonly db: Db) {}

  get<T>(key: string): T | undefined {
    const row = this.db.prepare('SELECT value FROM service_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  set(key: string, value: unknown): void {
    this.db
      .prepare('INSERT INTO service_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
      .run(key, JSON.stringify(value));
  }
}

/** The key the service clock is saved under after every advance (restored at start). */
export const CLOCK_STATE_KEY = 'clock';
