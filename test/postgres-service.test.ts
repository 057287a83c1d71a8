import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_FILE } from '../src/api/values/local-service.js';
import { startPostgres, type PostgresServer } from './helpers/postgres.js';
import { pgAccountIds, pgApiKeyCount, pgMediaNames, pgMediaOf, pgMessages, pgSchema, pgSchemaVersions, pgTableNames, pgWalletAndLedger, plantNewerPgSchema } from './helpers/inspect.js';
import { startTestService, type TestService } from './helpers/service.js';
import { buy, liveNumber } from './messages-fixtures.js';

// The service on the PostgreSQL engine (`store: postgres://…`), end to end over HTTP,
// against a throwaway server (test/helpers/postgres.ts).

let server: PostgresServer;
let svc: TestService;
let url: string;

beforeAll(async () => {
  server = await startPostgres();
  url = server.url(await server.createDatabase());
  svc = await startTestService({ store: url });
});

afterAll(async () => {
  await svc?.stop();
  await server?.stop();
});

/** What a new database records: the whole schema at once, then each change written once after it. */
const NEW_DATABASE_VERSIONS = pgSchema.newDatabaseVersions;

describe('the service on PostgreSQL', () => {
  it('migrates the empty database and bootstraps in it; no SQLite file is made', async () => {
    expect(await pgSchemaVersions(url)).toEqual(NEW_DATABASE_VERSIONS);
    expect(await pgAccountIds(url)).toEqual([svc.bootstrap.accountId]);
    expect(existsSync(join(svc.dataDir, DB_FILE))).toBe(false);
  });

  it('sends a message through HTTP: accepted, replayed by its idempotency key, delivered on the service clock, stored in PostgreSQL', async () => {
    const sender = await liveNumber(svc);
    const body = { to: '+14155550100', from: sender.phoneNumber, body: 'hello from PostgreSQL' };
    const sent = await svc.call('POST', '/v1/messages', { body, headers: { 'idempotency-key': 'pg-send-1' } });
    expect(sent.status, sent.text).toBe(201);
    const replay = await svc.call('POST', '/v1/messages', { body, headers: { 'idempotency-key': 'pg-send-1' } });
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(sent.body.id);

    await svc.advanceJobs(1);
    const got = await svc.call('GET', `/v1/messages/${sent.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id: sent.body.id, status: 'delivered', body: 'hello from PostgreSQL' });

    expect(await pgMessages(url, { id: sent.body.id })).toEqual([{ body: 'hello from PostgreSQL', status: 'delivered' }]);
    // The wallet still equals its ledger (the send's hold and charge committed with it).
    const wallet = await pgWalletAndLedger(url, svc.bootstrap.accountId);
    expect(wallet!.balance).toBe(wallet!.ledger);
  });

  it('two replicas started together on one empty database migrate and make one agency and one pair of keys, not two', async () => {
    const shared = server.url(await server.createDatabase());
    const [a, b] = await Promise.all([startTestService({ store: shared }), startTestService({ store: shared })]);
    try {
      const accounts = await pgAccountIds(shared);
      expect(accounts).toHaveLength(1);
      // One of them bootstrapped; the other found the agency inside its write and made no keys.
      const [made, joined] = a.bootstrapCreated ? [a, b] : [b, a];
      expect(made.bootstrapCreated).toBe(true);
      expect(made.bootstrap.accountId).toBe(accounts[0]);
      expect(joined.bootstrapCreated).toBe(false);
      expect(joined.joined).toMatch(/bootstrapped by another replica/);
      expect(await pgApiKeyCount(shared)).toBe(2);
      expect(await pgSchemaVersions(shared)).toEqual(NEW_DATABASE_VERSIONS);
    } finally {
      await a.stop();
      await b.stop();
    }
  });

  it('a greeting uploaded through one replica is served by another on the same database, from the database', async () => {
    const a = svc;
    const b = await startTestService({ store: url, keysFrom: a });
    try {
      const n = { body: await buy(a, { areaCode: '206' }) };
      const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(4096, 7)]);
      const upload = (through: TestService, bytes: Buffer) =>
        through.call('PUT', `/v1/numbers/${n.body.id}/voicemail-greeting`, { rawBody: bytes, headers: { 'content-type': 'audio/mpeg' } });
      const first = await upload(a, mp3);
      expect(first.status, first.text).toBe(200);
      const name = new URL(first.body.greetingAudioUrl).pathname.split('/').pop()!;
      const servedBy = async (s: TestService, media: string) => {
        const res = await fetch(`${s.baseUrl}/media/${media}`);
        return { status: res.status, type: res.headers.get('content-type'), bytes: Buffer.from(await res.arrayBuffer()) };
      };
      expect(await servedBy(b, name)).toEqual({ status: 200, type: 'audio/mpeg', bytes: mp3 });
      // In the database, with its owner, type and size; nothing in either data directory.
      expect(await pgMediaOf(url, name)).toEqual([
        { account_id: a.bootstrap.accountId, content_type: 'audio/mpeg', size: mp3.length },
      ]);
      expect(existsSync(join(a.dataDir, 'media'))).toBe(false);
      expect(existsSync(join(b.dataDir, 'media'))).toBe(false);
      // A new upload through the other replica replaces it for both: the old name is gone everywhere.
      const second = await upload(b, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(16, 1)]));
      expect(second.status, second.text).toBe(200);
      expect((await servedBy(a, name)).status).toBe(404);
      expect((await servedBy(b, name)).status).toBe(404);
      const secondName = new URL(second.body.greetingAudioUrl).pathname.split('/').pop()!;
      expect((await servedBy(a, secondName)).status).toBe(200);
      // The bound is the same as on SQLite (5 MB): a larger one is refused and nothing is stored.
      const before = await pgMediaNames(url);
      const big = await upload(a, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(5 * 1024 * 1024, 1)]));
      expect(big.status).toBe(400);
      expect(await pgMediaNames(url)).toEqual(before);
    } finally {
      await b.stop();
    }
  });

  it('refuses a database of a newer schema version, naming both versions, and changes nothing', async () => {
    const newer = server.url(await server.createDatabase());
    const ahead = pgSchema.newest + 1; // one version past this build's, whatever it is
    await plantNewerPgSchema(newer, ahead);
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-pg-refused-'));
    const started = startTestService({ store: newer, dataDir });
    await expect(started).rejects.toBeInstanceOf(pgSchema.UnsupportedSchemaError);
    await expect(started).rejects.toThrow(new RegExp(`version ${ahead}.*versions up to ${pgSchema.newest}`));
    expect(await pgTableNames(newer)).toEqual(['schema_migrations']);
    expect(await pgSchemaVersions(newer)).toEqual([ahead]);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
