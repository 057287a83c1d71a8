import type { Dialect, Statements } from './statements.js';
import type { ConsoleSessionRecord, ConsoleSessionsRepo } from '../console-sessions-repo.js';
import { Row, toRecord } from '../rows/console-sessions.js';

export class SqlConsoleSessionsRepo implements ConsoleSessionsRepo {
  private readonly byHash;
  constructor(
    private readonly db: Statements,
    protected readonly d: Dialect,
  ) {
    // Prepared once: every console request reads its session.
    this.byHash = db.prepare('SELECT * FROM console_sessions WHERE hash = ?');
  }

  async insert(s: ConsoleSessionRecord): Promise<void> {
    await this.db
      .prepare('INSERT INTO console_sessions (hash, kind, key_id, account_id, subaccount_id, csrf, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
      .run(s.hash, s.kind, s.keyId, s.accountId, s.subaccountId, s.csrf, s.createdAt, s.expiresAt);
  }

  async get(hash: string): Promise<ConsoleSessionRecord | undefined> {
    const row = (await this.byHash.get(hash)) as Row | undefined;
    return row && toRecord(row);
  }

  async delete(hash: string): Promise<boolean> {
    return (await this.db.prepare('DELETE FROM console_sessions WHERE hash = ?').run(hash)).changes > 0;
  }

  async setSubaccount(hash: string, subaccountId: string | null): Promise<void> {
    await this.db.prepare('UPDATE console_sessions SET subaccount_id = ? WHERE hash = ?').run(subaccountId, hash);
  }

  async deleteExpired(now: number): Promise<void> {
    await this.db.prepare('DELETE FROM console_sessions WHERE expires_at <= ?').run(now);
  }
}
