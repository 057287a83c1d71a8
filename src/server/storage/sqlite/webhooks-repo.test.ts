import { describe, expect, it } from 'vitest';
import { openDatabase } from './database.js';
import { type WebhookEndpointRecord } from '../webhooks-repo.js';
import { SqlWebhookEndpointsRepo } from '../shared/webhooks-repo.js';
import { sqliteDialect } from './dialect.js';
import type { Db } from './database.js';

function setup() {
  const db = openDatabase(':memory:');
  db.prepare("INSERT INTO accounts (id, name, created_at, updated_at) VALUES ('acct_a', 'A', 0, 0)").run();
  const repo = new SqlWebhookEndpointsRepo(db, sqliteDialect);
  const endpoint = (id: string, url: string): WebhookEndpointRecord => ({
    id, accountId: 'acct_a', url, events: ['*'], description: null, secret: `whsec_${id}xxxxxxxxxxxxxxxx`, enabled: true, disabledAt: null,
    disabledReason: null, consecutiveFailures: 0, failingSince: null, lastSuccessAt: null, mode: 'live', createdAt: 1, updatedAt: 1,
  });
  const urls = async () => (await repo.enabledForAccount('acct_a')).map((r) => r.url);
  const turn = () => new Promise((r) => setImmediate(r));
  return { db, repo, endpoint, urls, turn };
}

/** Runs `fn` in a transaction of `db` that it ends by throwing: the transaction rolls back. */
async function rolledBack(db: Db, fn: () => Promise<void>): Promise<void> {
  db.exec('BEGIN');
  try {
    await fn();
  } finally {
    db.exec('ROLLBACK');
  }
}

// The routes are kept in memory (read for every event); these pin that the memory never differs
// from the database, a rolled-back write included.
describe('WebhookEndpointsRepo.enabledForAccount', () => {
  it('follows inserts, updates, disabling and deletes at once', async () => {
    const { repo, endpoint, urls, turn } = setup();
    expect(await urls()).toEqual([]);
    await repo.insert(endpoint('we_1', 'https://a.example/1'));
    expect(await urls()).toEqual(['https://a.example/1']);
    await turn();
    expect(await urls()).toEqual(['https://a.example/1']);
    await repo.insert(endpoint('we_2', 'https://a.example/2'));
    await repo.update('we_1', { url: 'https://a.example/one' }, 2);
    expect(await urls()).toEqual(['https://a.example/one', 'https://a.example/2']);
    await turn();
    await repo.update('we_2', { enabled: false }, 3);
    expect(await urls()).toEqual(['https://a.example/one']);
    await turn();
    await repo.delete('we_1');
    expect(await urls()).toEqual([]);
  });

  it('keeps nothing a rolled-back transaction wrote, even when it was read inside that transaction', async () => {
    const { db, repo, endpoint, urls, turn } = setup();
    await repo.insert(endpoint('we_1', 'https://a.example/1'));
    await turn();
    expect(await urls()).toEqual(['https://a.example/1']); // cached now
    await expect(
      rolledBack(db, async () => {
        await repo.update('we_1', { url: 'https://a.example/rolled-back' }, 2);
        expect(await urls()).toEqual(['https://a.example/rolled-back']);
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await urls()).toEqual(['https://a.example/1']);
    await turn();
    expect(await urls()).toEqual(['https://a.example/1']);
  });

  it('gives routes only: the streak counters written on every attempt are not part of them', async () => {
    const { repo, endpoint } = setup();
    await repo.insert(endpoint('we_1', 'https://a.example/1'));
    const [route] = await repo.enabledForAccount('acct_a');
    expect(route).toBeDefined();
    expect(Object.keys(route!).sort()).toEqual(['accountId', 'createdAt', 'events', 'id', 'secret', 'url']);
    await repo.recordOutcome('we_1', false, 5);
    expect((await repo.getById('we_1'))!.consecutiveFailures).toBe(1);
    expect(await repo.enabledForAccount('acct_a')).toEqual([route]);
  });
});

describe('WebhookEndpointsRepo.targetById (each delivery attempt)', () => {
  it('follows updates, disabling and deletes at once, and keeps nothing a rolled-back transaction wrote', async () => {
    const { db, repo, endpoint, turn } = setup();
    expect(await repo.targetById('we_1')).toBeUndefined();
    await repo.insert(endpoint('we_1', 'https://a.example/1'));
    await turn();
    expect(await repo.targetById('we_1')).toMatchObject({ url: 'https://a.example/1', enabled: true, disabledReason: null });
    await repo.update('we_1', { enabled: false, disabledReason: 'failing', secret: 'whsec_rotatedxxxxxxxxxxxxx' }, 2);
    expect(await repo.targetById('we_1')).toMatchObject({ enabled: false, disabledReason: 'failing', secret: 'whsec_rotatedxxxxxxxxxxxxx' });
    await turn();
    expect(await repo.targetById('we_1')).toMatchObject({ enabled: false }); // cached again, still true to the row
    await expect(
      rolledBack(db, async () => {
        await repo.update('we_1', { url: 'https://a.example/rolled-back', enabled: true }, 3);
        expect(await repo.targetById('we_1')).toMatchObject({ url: 'https://a.example/rolled-back' });
        throw new Error('roll back');
      }),
    ).rejects.toThrow('roll back');
    expect(await repo.targetById('we_1')).toMatchObject({ url: 'https://a.example/1', enabled: false });
    await turn();
    expect(await repo.targetById('we_1')).toMatchObject({ url: 'https://a.example/1', enabled: false });
    await repo.delete('we_1');
    expect(await repo.targetById('we_1')).toBeUndefined();
  });
});
