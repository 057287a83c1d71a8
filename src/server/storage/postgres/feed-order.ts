import type { Sql } from './sql.js';

/** The advisory-lock namespace of the per-account feeds (events, mail sandbox): any int4 of our own. */
const FEED_LOCK = 0x73766302;

/**
 * Readers page the events feed and the mail sandbox by `seq` ("after position N"), so a position
 * must never become visible after a higher one of the same account: a follower that has read N+1
 * would never look back for N. Identity values are handed out at insert, not at commit, so two
 * concurrent writes could commit their rows out of order. Taking this per-account lock before the
 * insert, held to the end of the transaction, makes one account's feed rows commit in the order of
 * their positions (writes for other accounts do not wait). Two writes that take two accounts' locks
 * in opposite orders deadlock; the server aborts one (40P01) and the store runs it again.
 */
export async function lockAccountFeed(db: Sql, accountId: string): Promise<void> {
  await db.prepare('SELECT pg_advisory_xact_lock(?, hashtext(?))').get(FEED_LOCK, accountId);
}

/**
 * The same lock as a FROM item, for an INSERT … SELECT that takes it in the statement that inserts
 * (one round trip, not two). Its two parameters come first: the lock's namespace, then the account.
 * OFFSET 0 keeps the planner from pulling the subquery up into the insert's own projection, so the
 * lock is taken before the row's position (its identity default) is drawn.
 */
export const FEED_LOCK_FROM = '(SELECT pg_advisory_xact_lock(?::int, hashtext(?)) OFFSET 0) AS feed_order';
export { FEED_LOCK };
