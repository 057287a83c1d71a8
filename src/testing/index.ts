// svc/testing: the local service inside an app's test suite. This entry point re-exports the
// published types (types.ts) and loads nothing of the service until `startService` is called, so a
// test file that imports it pays for the server once, when it starts one.
import type { ConnectServiceOptions, SharedServiceInfo, StartServiceOptions, TestService } from './types.js';

export type { ChaosProfile, ChaosFaultKind, ChaosLogEntry } from '../api/values/chaos.js';
export type {
  CallTestCase,
  CallTestDocument,
  CallTestReport,
  ConnectServiceOptions,
  FixtureObject,
  SharedServiceInfo,
  SimulateCallInput,
  SimulatedCall,
  StartServiceOptions,
  TestService,
  TextMatch,
  WaitOptions,
} from './types.js';

/** Starts a local service on its own port and data, ready to use; `close()` it when done. */
export async function startService(options: StartServiceOptions = {}): Promise<TestService> {
  try {
    const { launchTestService } = await import('./service.js');
    return await launchTestService(options);
  } catch (error) {
    // A Node switched without a rebuild (better-sqlite3 loads its addon at the first database it
    // opens): the cause and the fix, not Node's five lines. Loaded only here: importing svc/testing
    // loads nothing but its entry.
    const { addonMismatchHelp } = await import('../api/values/node-runtime.js');
    const mismatch = addonMismatchHelp(error);
    throw mismatch ? new Error(mismatch, { cause: error }) : error;
  }
}

/**
 * A test file's own account on the suite's one service (`svc/testing/vitest-setup`): the same
 * handle as `startService`'s, in a few milliseconds, with these differences. The account is fresh
 * (a sub-account, with its own keys, data, events, chaos profile and log), so files running in
 * parallel never see each other's records. `reset()` moves the handle to a NEW account seeded as
 * this one was (its keys and `env` change: read them after the reset; the old account is
 * suspended). The clock is the service's: `clock.advance`/`clock.set` and a `calls.simulate` walked
 * to its end move it for every file, and `reset()` does not rewind it; a file that depends on time
 * standing still uses `startService`. `chaos.set` sets the account's own profile (not the
 * service-wide one). `close()` suspends the account; the service stops when the suite ends.
 */
export async function connectService(shared: SharedServiceInfo | undefined, options: ConnectServiceOptions = {}): Promise<TestService> {
  if (!shared?.baseUrl) throw new Error("connectService: no shared service; add globalSetup: ['svc/testing/vitest-setup'] to the Vitest config and pass inject('svcService')");
  const { connectSharedService } = await import('./shared.js');
  return connectSharedService(shared, options);
}
