import { describe, expect, it } from 'vitest';
import { openDatabase, type Db } from './database.js';
import { encodeCursor } from './pagination.js';
import { SqlMessagesRepo } from '../shared/messages-repo.js';
import { SqlEventsRepo } from '../shared/events-repo.js';
import { SqlWebhookDeliveriesRepo } from '../shared/webhook-deliveries-repo.js';
import { SqlOptOutsRepo } from '../shared/opt-outs-repo.js';
import { sqliteDialect } from './dialect.js';

// Scale: the hot reads must stay flat from 10k to 1M rows, so each must seek an index to
// its start and read its rows in index order: no full SCAN of a table, no temporary b-tree to sort
// (bench/scale measures the times; this pins the plans, which do not depend on the machine). The SQL
// is the repositories' own: every text they prepare during a call is captured and explained.

/** The SQL texts `fn` prepares (statements prepared in a constructor: construct inside `fn`). */
function preparedBy(db: Db, fn: () => void): string[] {
  const seen: string[] = [];
  const prepare = db.prepare;
  db.prepare = ((sql: string) => {
    seen.push(sql);
    return prepare(sql);
  }) as Db['prepare'];
  try {
    fn();
  } finally {
    db.prepare = prepare;
  }
  return seen.filter((sql) => /^\s*SELECT/i.test(sql));
}

function plan(db: Db, sql: string): string[] {
  const params = Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1);
  return (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((r) => r.detail);
}

const cursor = encodeCursor({ createdAt: 1_700_000_000_000, seq: 5 });

describe('the plans of the hot list reads', () => {
  const db = openDatabase(':memory:');
  const cases: Array<[string, () => void]> = [
    ['messages, first page', () => new SqlMessagesRepo(db, sqliteDialect).list('acct', {}, 100)],
    ['messages, a deep page', () => new SqlMessagesRepo(db, sqliteDialect).list('acct', {}, 100, cursor)],
    ['conversations, a deep page', () => new SqlMessagesRepo(db, sqliteDialect).conversations('acct', 100, cursor)],
    ['a conversation thread', () => new SqlMessagesRepo(db, sqliteDialect).thread('acct', '+14155550100', 50)],
    ['events after a cursor', () => new SqlEventsRepo(db, sqliteDialect).feedPage('acct', { afterSeq: 5, order: 'asc', limit: 100, exact: [], prefixes: [] })],
    ['events before a cursor', () => new SqlEventsRepo(db, sqliteDialect).feedPage('acct', { beforeSeq: 5, order: 'desc', limit: 100, exact: [], prefixes: [] })],
    ['events of one type after a cursor', () => new SqlEventsRepo(db, sqliteDialect).feedPage('acct', { afterSeq: 5, order: 'asc', limit: 100, exact: ['message.delivered'], prefixes: [] })],
    ['the feed head', () => new SqlEventsRepo(db, sqliteDialect).headSeq('acct')],
    // contract §4: every send asks whether its recipient opted out of its sender.
    ['the opt-out check of a send', () => new SqlOptOutsRepo(db, sqliteDialect).findActive('acct', '+14155550100', '+14155550123')],
    ['opt-outs, a deep page', () => new SqlOptOutsRepo(db, sqliteDialect).list('acct', {}, 100, cursor)],
    ['opt-outs of one number, a deep page', () => new SqlOptOutsRepo(db, sqliteDialect).list('acct', { from: '+14155550100' }, 100, cursor)],
    [
      'the delivery due scans',
      () => {
        const repo = new SqlWebhookDeliveriesRepo(db, sqliteDialect);
        void repo.due(Date.now()); // the statement runs when called (the plan is what is checked)
        void repo.dueForEvent('evt_1', Date.now());
      },
    ],
  ];

  it.each(cases)('%s: every table is searched through an index, in index order', (_name, read) => {
    const texts = preparedBy(db, read);
    expect(texts.length).toBeGreaterThan(0);
    for (const sql of texts) {
      const steps = plan(db, sql);
      // A statement driven by a batch of ids the caller bound (json_each: claimAttempts,
      // attemptStates, dueForEvents) scans that list, not a table, and searches each id through an
      // index; it reads only those ids' rows, so sorting them is bounded by the batch, not the table.
      const batch = /json_each\(\?\)/.test(sql);
      const scans = steps.filter((s) => (/^SCAN /.test(s) && !(batch && /^SCAN json_each VIRTUAL TABLE/.test(s))) || (/TEMP B-TREE/.test(s) && !(batch && s === 'USE TEMP B-TREE FOR ORDER BY')));
      expect(scans, `${sql}\n${steps.join('\n')}`).toEqual([]);
      expect(steps.some((s) => /^SEARCH .* USING (COVERING )?INDEX|^SEARCH .* USING INTEGER PRIMARY KEY/.test(s)), `${sql}\n${steps.join('\n')}`).toBe(true);
    }
  });

  // The old keyset condition, `time < ? OR (time = ? AND seq < ?)`, planned as a search on the
  // account alone: each page read the index from the newest row down to its cursor.
  it.each([
    ['messages', () => new SqlMessagesRepo(db, sqliteDialect).list('acct', {}, 100, cursor), /messages_account \(account_id=\? AND (created_at<\?|\(created_at,seq\)<\(\?,\?\))\)/],
    ['conversations', () => new SqlMessagesRepo(db, sqliteDialect).conversations('acct', 100, cursor), /conversations_recent \(account_id=\? AND (last_at<\?|\(last_at,last_seq\)<\(\?,\?\))\)/],
  ] as const)('a deep page of %s starts at its cursor: a range on the index', (_name, read, range) => {
    const page = preparedBy(db, read).find((sql) => sql.includes('json_array'));
    expect(plan(db, page!).join('\n')).toMatch(range);
  });
});
