// `svc/testing/vitest-setup`: a Vitest `globalSetup` that starts the suite's ONE local service (in
// Vitest's main process, manual clock) and hands its address and root key to the test files
// (`inject('svcService')`), where `connectService` gives each file an account of its own in a few
// requests. A file then loads none of the server: its first service costs what the suite's did, the
// others a few milliseconds.
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { launchWithInternals } from './service.js';
import type { SharedServiceInfo } from './types.js';

declare module 'vitest' {
  export interface ProvidedContext {
    svcService: SharedServiceInfo;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { handle, exemptToken, clockMode } = await launchWithInternals({ clock: 'manual' });
  project.provide('svcService', { baseUrl: handle.baseUrl, rootKey: handle.liveKey, exemptToken, clock: clockMode });
  return async () => await handle.close();
}
