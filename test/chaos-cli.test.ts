// `svc server start --chaos FILE` starts the service with a chaos profile; a bad profile is
// refused before anything starts, naming the field.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runSvcProcess } from './helpers/cli.js';

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('svc server start --chaos', () => {
  beforeAll(() => assertBuilt());

  it('starts with the profile of the file (detached too), and the API serves it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-chaos-'));
    const env = { SVC_DATA_DIR: dataDir };
    const profile = join(dataDir, '..', `${dataDir.split('/').pop()}-chaos.yaml`);
    writeFileSync(profile, 'seed: 42\nfaults:\n  api.429: { rate: 0.5, retryAfterSecs: 3 }\n  carrier.failed: { rate: 0.1, reason: no signal }\n');
    try {
      const started = await runSvcProcess(['server', 'start', '--detach', '--port', '0', '--clock', 'manual', '--chaos', profile], { env });
      expect(started.code, started.stderr).toBe(0);
      const baseUrl = started.stdout.trim();
      const { liveKey } = JSON.parse(readFileSync(join(dataDir, 'bootstrap.json'), 'utf8')) as { liveKey: string };
      // `--chaos` sets the service-wide profile (contract §9), not the root account's own.
      const res = await fetch(`${baseUrl}/v1/sandbox/chaos?scope=service`, { headers: { authorization: `Bearer ${liveKey}` } });
      expect(await res.json()).toEqual({ seed: 42, faults: { 'api.429': { rate: 0.5, retryAfterSecs: 3 }, 'carrier.failed': { rate: 0.1, reason: 'no signal' } } });
      expect((await runSvcProcess(['server', 'stop'], { env })).code).toBe(0);
    } finally {
      const info = existsSync(join(dataDir, 'server.json')) ? (JSON.parse(readFileSync(join(dataDir, 'server.json'), 'utf8')) as { pid: number }) : undefined;
      if (info && isAlive(info.pid)) process.kill(info.pid, 'SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
      rmSync(profile, { force: true });
    }
  }, 60_000);

  it('refuses a bad profile with exit 2 naming the field, and starts nothing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-chaos-bad-'));
    const profile = join(dataDir, 'chaos.yaml');
    writeFileSync(profile, 'seed: 1\nfaults:\n  api.429: { rate: 1.5 }\n');
    try {
      const res = await runSvcProcess(['server', 'start', '--detach', '--port', '0', '--chaos', profile], { env: { SVC_DATA_DIR: dataDir } });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('faults.api.429.rate');
      expect(existsSync(join(dataDir, 'server.json'))).toBe(false);
      const missing = await runSvcProcess(['server', 'start', '--port', '0', '--chaos', join(dataDir, 'nope.yaml')], { env: { SVC_DATA_DIR: dataDir } });
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('cannot read it (ENOENT)');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
