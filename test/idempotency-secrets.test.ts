import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { itOnSqlite } from './helpers/engines.js';
import { join } from 'node:path';
import { startTestService, type TestService } from './helpers/service.js';
import { idempotencyAnswers } from './helpers/inspect.js';
import { DB_FILE } from '../src/api/values/local-service.js';

// Secrets are shown once: the idempotency store never keeps one, and a replay shows it as null.
describe('idempotent replays never carry secrets', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService();
  });
  afterAll(async () => svc.stop());

  it('API keys and webhook secrets are absent from the store and null in replays', async () => {
    const key = await svc.call('POST', '/v1/keys', { body: { name: 'k' }, headers: { 'idempotency-key': 'secret-k' } });
    expect(key.body.key).toMatch(/^sk_live_/);
    const wh = await svc.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com/x' }, headers: { 'idempotency-key': 'secret-w' } });
    expect(wh.status).toBe(201);
    expect(wh.body.secret).toMatch(/^whsec_/);
    const rotated = await svc.call('POST', `/v1/webhooks/${wh.body.id}/rotate-secret`, { headers: { 'idempotency-key': 'secret-r' } });
    expect(rotated.body.secret).toMatch(/^whsec_/);

    const replayKey = await svc.call('POST', '/v1/keys', { body: { name: 'k' }, headers: { 'idempotency-key': 'secret-k' } });
    expect(replayKey.headers['idempotent-replayed']).toBe('true');
    expect(replayKey.body).toMatchObject({ id: key.body.id, prefix: key.body.prefix, key: null });
    const replayWh = await svc.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com/x' }, headers: { 'idempotency-key': 'secret-w' } });
    expect(replayWh.body).toMatchObject({ id: wh.body.id, secret: null });

    const stored = (await idempotencyAnswers(svc)).join('\n');
    expect(stored).not.toContain(key.body.key);
    expect(stored).not.toContain(wh.body.secret);
    expect(stored).not.toContain(rotated.body.secret);
    expect(stored).toContain(key.body.id);
  });
});

describe('the database files', () => {
  itOnSqlite('are readable by their owner only (they hold webhook secrets)', async () => {
    const { statSync, existsSync } = await import('node:fs');
    const svc = await startTestService();
    try {
      await svc.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com/y' } });
      for (const f of [DB_FILE, `${DB_FILE}-wal`, `${DB_FILE}-shm`]) {
        const p = join(svc.dataDir, f);
        if (f === DB_FILE) expect(existsSync(p)).toBe(true);
        if (existsSync(p)) expect(statSync(p).mode & 0o777, f).toBe(0o600);
      }
    } finally {
      await svc.stop();
    }
  });
});
