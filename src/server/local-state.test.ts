import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './storage/sqlite/database.js';
import { SqliteStore } from './storage/sqlite/store.js';
import { composeService } from './compose.js';
import { restoreClock } from './clock.js';
import { createAgencyAccount } from './domain/accounts.js';
import { keyRecord } from './domain/keys.js';
import { resetData } from './local-state.js';
import { DB_FILE, MEDIA_DIR } from '../api/values/local-service.js';
import { SqlKeysRepo } from './storage/shared/keys-repo.js';
import { SqlAccountsRepo } from './storage/shared/accounts-repo.js';
import { sqliteDialect } from './storage/sqlite/dialect.js';

// `svc server reset --keep-keys` keeps every key; its times must not be later than the
// clock the reset starts (else `keys list` reads `lastUsedAt in 58m` after a reset).

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('resetData --keep-keys', () => {
  it('brings a key time later than the reset clock back to it, and leaves earlier ones as they were', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'svc-reset-'));
    dirs.push(dir);
    const hour = 3_600_000;
    const start = Date.now();
    const db = openDatabase(path.join(dir, DB_FILE));
    const deps = await composeService(new SqliteStore(db), restoreClock('system', undefined), { error: () => undefined }, { mediaDir: path.join(dir, MEDIA_DIR) });
    const [future, past] = await deps.uow.write(async (tx) => {
      const account = await createAgencyAccount(tx, 'Local agency');
      // Made and used while the service clock was advanced an hour (svc clock advance 1h).
      const future = { ...keyRecord(account.id, 'used after an advance', 'live', 'sk_live_futurefuturefuturefuture00', start + hour), lastUsedAt: start + hour };
      const past = { ...keyRecord(account.id, 'used before', 'test', 'sk_test_pastpastpastpastpastpast00', start - hour), lastUsedAt: start - hour / 2 };
      await tx.keys.insert(future);
      await tx.keys.insert(past);
      return [future, past];
    });
    await deps.store.close();

    await resetData(dir, true);
    const after = Date.now();

    const fresh = openDatabase(path.join(dir, DB_FILE));
    try {
      const keys = new SqlKeysRepo(fresh, sqliteDialect, new SqlAccountsRepo(fresh, sqliteDialect));
      const kept = (await keys.findByHash(future.hash))!;
      expect(kept.lastUsedAt).not.toBeNull();
      expect(kept.lastUsedAt!).toBeGreaterThanOrEqual(start);
      expect(kept.lastUsedAt!).toBeLessThanOrEqual(after);
      expect(kept.createdAt).toBeLessThanOrEqual(after);
      expect(await keys.findByHash(past.hash)).toMatchObject({ createdAt: past.createdAt, lastUsedAt: past.lastUsedAt });
    } finally {
      fresh.close();
    }
  });
});
