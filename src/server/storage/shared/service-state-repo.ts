import type { Dialect, Statement, Statements } from './statements.js';
import type { ServiceStateRepo } from '../service-state-repo.js';

/** Small key → JSON values the service keeps about itself (the clock). */
export class SqlServiceStateRepo implements ServiceStateRepo {
  constructor(
    protected readonly db: Statements,
    protected readonly d: Dialect,
  ) {}

  async get<T>(key: string): Promise<T | undefined> {
    const row = await this.db.prepare('SELECT value FROM service_state WHERE key = ?').get(key) as { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : undefined;
  }

  // Prepared once, on first use: a clock advance saves the clock with every job it runs.
  private setStmt: Statement | undefined;

  async set(key: string, value: unknown): Promise<void> {
    this.setStmt ??= this.db.prepare('INSERT INTO service_state (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
    await this.setStmt.run(key, JSON.stringify(value));
  }
}
