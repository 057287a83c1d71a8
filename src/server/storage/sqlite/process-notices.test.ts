import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SqliteStore } from './store.js';
import { openDatabase } from './database.js';
import { NOTICES_KEPT } from './process-notices.js';
import type { ProcessNotice } from '../store.js';

// The notices a worker leaves in the SQLite file for the API process beside it. Two stores
// on one file stand for the two processes (each its own connection, as each process has).

const dirs: string[] = [];
const stores: SqliteStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Two processes on one file: the worker that leaves notices, the API process that reads them. */
function twoProcesses(): { worker: SqliteStore; api: SqliteStore } {
  const dir = mkdtempSync(join(tmpdir(), 'svc-notices-'));
  dirs.push(dir);
  const file = join(dir, 'svc.db');
  const worker = new SqliteStore(openDatabase(file));
  const api = new SqliteStore(openDatabase(file));
  stores.push(worker, api);
  return { worker, api };
}

const message = (id: string, status: string): ProcessNotice => ({ change: { accountId: 'acc_1', kind: 'message', id, status } });
const event = (id: string): ProcessNotice => ({ event: { id, accountId: 'acc_1', type: 'message.status' } });
const moved = (id: string): ProcessNotice => ({ event: { id, accountId: 'acc_1', type: 'message.status', move: { messageId: 'msg_1', status: 'undelivered', reason: 'carrier_rejected' } } });

describe('notices left in the file for another process', () => {
  it('are read by the other process once committed, in order, each once; what was left before it opened is not its business', async () => {
    const { worker } = twoProcesses();
    await worker.write(async (tx) => worker.notices.leave(tx, event('evt_before')));
    // The API process opens after that notice was left.
    const api = new SqliteStore(openDatabase(worker.db.name));
    stores.push(api);
    expect(await api.notices.heard()).toEqual({ notices: [], missed: false });

    await worker.write(async (tx) => {
      worker.notices.leave(tx, message('msg_1', 'sending'));
      worker.notices.leave(tx, event('evt_1'));
      worker.notices.leave(tx, moved('evt_2'));
    });
    await worker.write(async (tx) => worker.notices.leave(tx, { change: { accountId: 'acc_2', kind: 'call', id: 'call_1' } }));
    expect(await api.notices.heard()).toEqual({
      notices: [message('msg_1', 'sending'), event('evt_1'), moved('evt_2'), { change: { accountId: 'acc_2', kind: 'call', id: 'call_1' } }],
      missed: false,
    });
    expect(await api.notices.heard()).toEqual({ notices: [], missed: false });
  });

  it('commit or roll back with the change: a savepoint that throws leaves none, and no gap taken for a loss', async () => {
    const { worker, api } = twoProcesses();
    await worker.write(async (tx) => {
      worker.notices.leave(tx, event('evt_kept'));
      await tx.savepoint(async (inner) => {
        worker.notices.leave(inner, event('evt_rolled_back'));
        throw new Error('the job failed');
      }).catch(() => undefined);
    });
    await expect(worker.write(async (tx) => {
      worker.notices.leave(tx, event('evt_failed_write'));
      throw new Error('the whole write failed');
    })).rejects.toThrow('the whole write failed');
    await worker.write(async (tx) => worker.notices.leave(tx, event('evt_next')));
    expect(await api.notices.heard()).toEqual({ notices: [event('evt_kept'), event('evt_next')], missed: false });
  });

  it('are refused outside a transaction (a notice must commit with what it stands for)', () => {
    const { worker } = twoProcesses();
    expect(() => worker.notices.leave(undefined as never, event('evt_loose'))).toThrow('outside a transaction');
  });

  it('keep the newest only: a reader that fell further behind is told it missed some', async () => {
    const { worker, api } = twoProcesses();
    const total = NOTICES_KEPT + 1_000;
    await worker.write(async (tx) => {
      for (let i = 0; i < total; i++) worker.notices.leave(tx, event(`evt_${i}`));
    });
    const rows = (worker.db.prepare('SELECT count(*) AS n FROM process_notices').get() as { n: number }).n;
    expect(rows).toBeLessThan(total);
    expect(rows).toBeGreaterThanOrEqual(NOTICES_KEPT);
    const heard = await api.notices.heard();
    expect(heard.missed).toBe(true);
    // What is still there is read, newest last.
    expect(heard.notices).toHaveLength(rows);
    expect(heard.notices.at(-1)).toEqual(event(`evt_${total - 1}`));
    expect(await api.notices.heard()).toEqual({ notices: [], missed: false });
  });
});
