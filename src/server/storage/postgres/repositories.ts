import { PgEventsRepo } from './events-repo.js';
import { PgIdempotencyRepo } from './idempotency-repo.js';
import { PgKeysRepo } from './keys-repo.js';
import { PgServiceStateRepo } from './service-state-repo.js';
import type { Sql } from './sql.js';
import type { Repositories } from '../store.js';
import { pgDialect } from './dialect.js';
import { sqlRepositories } from '../shared/repositories.js';

/**
 * The PostgreSQL engine's repositories over one pooled client's SQL runner (made once per connection
 * and reused by each of its transactions: PgStore.bind). `sender` names this replica in the
 * notifications its writes send (peers.ts).
 */
export function pgRepositories(db: Sql, sender = ''): Repositories {
  return sqlRepositories(db, pgDialect, ({ accounts }) => ({
    eventsRepo: new PgEventsRepo(db),
    idempotency: new PgIdempotencyRepo(db),
    keys: new PgKeysRepo(db, accounts),
    serviceState: new PgServiceStateRepo(db, sender),
  }));
}
