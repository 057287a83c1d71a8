// The Vitest setup file: one local service per test file (each worker gets its own port and data),
// seeded once, and put back to that seeded state before every test.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startService } from 'svc/testing';

beforeAll(async () => {
  globalThis.svc = await startService({ seed: new URL('./seed.yaml', import.meta.url).pathname });
}, 60_000);
beforeEach(async () => await globalThis.svc.reset());
afterAll(async () => await globalThis.svc?.close());
