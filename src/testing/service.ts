// svc/testing's implementation, loaded by `startService` (index.ts). The service runs in this process
// on its own port and data directory; every helper but `reset()` speaks the public HTTP API
// (handle.ts), as the app under test does. `reset()` is the one lifecycle act that reaches inside
// (server/reset-point.ts).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService as startServer, type RunningService } from '../server/main.js';
import { markResetPoint, type ServiceResetPoint } from '../server/reset-point.js';
import type { ChaosProfile } from '../api/values/chaos.js';
import { runSeed } from './seed.js';
import { ACCOUNT_CHAOS_PATH, CHAOS_OFF, SERVICE_CHAOS_PATH, createHandle } from './handle.js';
import type { StartServiceOptions, TestService } from './types.js';

/** No limit of the service gets in a test's way (as the project's own test services). */
const UNLIMITED = { ratePerSec: 1e9, burst: 1e9 } as const;

export async function launchTestService(options: StartServiceOptions): Promise<TestService> {
  return (await launchWithInternals(options)).handle;
}

/** The handle, and what the suite's shared service hands its test files (vitest-setup.ts). */
export async function launchWithInternals(options: StartServiceOptions): Promise<{ handle: TestService; exemptToken: string; clockMode: 'manual' | 'system' }> {
  const ownDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'svc-testing-'));
  const chaos = typeof options.chaos === 'string' ? await readChaosFile(options.chaos) : options.chaos;
  const clockMode = options.clock ?? 'manual';
  let service: RunningService;
  try {
    service = await startServer({
      host: '127.0.0.1',
      port: 0,
      dataDir,
      clock: clockMode,
      rateLimit: UNLIMITED,
      unauthenticatedRate: UNLIMITED,
      ...(chaos ? { chaos } : {}),
    });
  } catch (error) {
    if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  const { baseUrl, bootstrap } = service;
  const exemptToken = service.deps.chaos.exemptToken;
  const account = { baseUrl, liveKey: bootstrap.liveKey, testKey: bootstrap.testKey, accountId: bootstrap.accountId };
  let point: ServiceResetPoint = await markResetPoint(service);
  let closed = false;

  const { handle } = await createHandle(account, { exemptToken, clockMode, clockKey: () => account.liveKey, chaosPath: SERVICE_CHAOS_PATH }, ({ ok, restartFeed }) => ({
    async reset() {
      await point.restore();
      await restartFeed();
    },
    async seed(fixture) {
      // The fixture runs with chaos off (its requests are the test's setup, not the app under test):
      // the account's profile and the service-wide one, each put back after.
      const scopes = [ACCOUNT_CHAOS_PATH, SERVICE_CHAOS_PATH];
      const profiles = await Promise.all(scopes.map((path) => ok('GET', path)));
      for (const path of scopes) await ok('PUT', path, CHAOS_OFF);
      let results: unknown[];
      try {
        results = await runSeed(fixture, { baseUrl, apiKey: account.liveKey });
      } finally {
        for (const [i, path] of scopes.entries()) await ok('PUT', path, profiles[i]);
      }
      // The seeded state is the one reset() returns to from now on.
      point = await markResetPoint(service);
      await restartFeed();
      return results;
    },
    async close() {
      if (closed) return;
      closed = true;
      await service.close();
      if (ownDir) rmSync(dataDir, { recursive: true, force: true });
    },
  }));
  if (options.seed !== undefined) {
    try {
      await handle.seed(options.seed);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
  return { handle, exemptToken, clockMode };
}

async function readChaosFile(file: string): Promise<ChaosProfile> {
  const { parse } = await import('yaml');
  return parse(readFileSync(file, 'utf8')) as ChaosProfile;
}
