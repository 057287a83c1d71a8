import { describe, it, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestService } from './helpers/service.js';
import { advance, liveNumber } from './messages-fixtures.js';

// contract §1: service time never goes back, not even across a restart; otherwise work scheduled
// after an advance (a message in flight, a retry, a carrier decision) would wait in the future.
describe('the service clock survives a restart', () => {
  it('a manual clock resumes where it stood, and a message in flight still finishes', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-clock-'));
    try {
      const first = await startTestService({ dataDir, clock: 'manual' });
      await advance(first, 6 * 3600);
      const before = (await first.call('GET', '/v1/sandbox/clock')).body.now as string;
      const number = await liveNumber(first);
      const sent = await first.call('POST', '/v1/messages', { body: { to: '+14155550199', from: number.phoneNumber, body: 'in flight' } });
      expect(sent.status).toBe(201);
      await first.stop();

      const second = await startTestService({ dataDir, clock: 'manual' });
      const after = (await second.call('GET', '/v1/sandbox/clock')).body.now as string;
      expect(after).toBe(before);
      await advance(second, 2);
      const got = await second.call('GET', `/v1/messages/${sent.body.id}`);
      expect(got.body.status).toBe('delivered');
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('a system clock keeps the offset an advance gave it', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-clock-'));
    try {
      const first = await startTestService({ dataDir, clock: 'system' });
      await advance(first, 6 * 3600);
      await first.stop();
      const second = await startTestService({ dataDir, clock: 'system' });
      const now = Date.parse((await second.call('GET', '/v1/sandbox/clock')).body.now);
      expect(now - Date.now()).toBeGreaterThan(6 * 3600 * 1000 - 60_000);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
