import type { Dialect, Statements } from './statements.js';
import { asIs, table, type Row } from './table.js';
import type { ConsoleSessionRecord, ConsoleSessionsRepo } from '../console-sessions-repo.js';

const CONSOLE_SESSIONS = table<ConsoleSessionRecord>('console_sessions', {
  hash: asIs,
  kind: asIs,
  keyId: asIs,
  accountId: asIs,
  subaccountId: asIs,
  csrf: asIs,
  createdAt: asIs,
  expiresAt: asIs,
});

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
    await this.db.prepare(CONSOLE_SESSIONS.insertSql()).run(...CONSOLE_SESSIONS.values(s, this.d));
  }

  async get(hash: string): Promise<ConsoleSessionRecord | undefined> {
    const row = (await this.byHash.get(hash)) as Row | undefined;
    return row && CONSOLE_SESSIONS.read(row);
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
