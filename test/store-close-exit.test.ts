// A process whose last act is closing a store whose checkpoint thread runs ends normally, once the
// database is closed (the thread was unref'd: the close's wait on its exit kept nothing alive, and
// Node ended the process with exit 13 before the close finished; found by bench/testing.mjs).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, assertBuilt } from './helpers/cli.js';

describe('closing a store as the last act of a process', () => {
  it('waits for the checkpoint thread and exits 0', () => {
    assertBuilt();
    const dir = mkdtempSync(join(tmpdir(), 'svc-close-exit-'));
    try {
      const script = `
        const { openDatabase } = await import(${JSON.stringify(join(REPO_ROOT, 'dist/server/storage/sqlite/database.js'))});
        const { SqliteStore } = await import(${JSON.stringify(join(REPO_ROOT, 'dist/server/storage/sqlite/store.js'))});
        const store = new SqliteStore(openDatabase(${JSON.stringify(join(dir, 'svc.db'))}), { checkpointAfterCommits: 1 });
        await store.write(async () => undefined);
        if (!store.checkpointer) throw new Error('no checkpoint thread');
        await store.close();
        console.log('closed');`;
      const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 });
      expect(res.stderr).toBe('');
      expect({ status: res.status, stdout: res.stdout }).toEqual({ status: 0, stdout: 'closed\n' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
