import type { Sql } from './sql.js';
import type { EventRecord } from '../events-repo.js';
import { EVENTS, SqlEventsRepo } from '../shared/events-repo.js';
import { pgDialect } from './dialect.js';

/**
 * The insert of `n` events of one account, in the order given, without a feed position: the
 * position, and the other replicas' notification, come after the transaction commits
 * (feed-order.ts `sequenceFeed`, run by the store for every account noted in `feedsWritten`).
 * One round trip. Parameters: 5 per row (id, account, type, createdAt, body).
 */
function insertSql(n: number): string {
  const rows = Array.from({ length: n }, () => '(?::text, ?::text, ?::text, ?::bigint, ?::text)').join(', ');
  return `INSERT INTO events (id, account_id, type, created_at, body) VALUES ${rows}`;
}

/**
 * The events written once (shared/events-repo.ts), numbered after commit: holding an account's
 * feed lock from the insert through COMMIT made one account's sends commit one at a time
 * (feed-order.ts says why, and how the numbering keeps positions visible in order).
 */
export class PgEventsRepo extends SqlEventsRepo {
  constructor(private readonly sql: Sql) {
    // `pos`: the feed position, NULL until the event is numbered, just after its commit.
    super(sql, pgDialect, { column: 'pos', numbered: ['pos IS NOT NULL'] });
  }

  override async insert(e: Omit<EventRecord, 'seq'>): Promise<number> {
    return (await this.insertMany([e]))[0]!;
  }

  /** Returns 0 for each event: its position is given after the commit (see insertSql). */
  override async insertMany(events: ReadonlyArray<Omit<EventRecord, 'seq'>>): Promise<number[]> {
    if (events.length === 0) return [];
    for (const e of events) this.sql.feedsWritten.add(e.accountId);
    await this.sql.prepare(insertSql(events.length)).run(...events.flatMap((e) => EVENTS.values(e, pgDialect)));
    return events.map(() => 0);
  }
}
