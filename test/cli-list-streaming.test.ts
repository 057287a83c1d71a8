// `svc messages list --all` and `svc events list --all` stream every page (the next page is
// asked for while the current one prints): against the real local service with a small page size,
// every row comes once and in order; as real child processes, a reader that closes the pipe
// (`| head`) or a Ctrl-C ends the stream cleanly. Needs `npm run build` for the child processes.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH, expectOk, REPO_ROOT, runSvc } from './helpers/cli.js';
import { MessagePage } from '../src/api/schemas/messages.js';
import { ConversationPage } from '../src/api/schemas/conversations.js';
import { buy } from './messages-fixtures.js';
import { feedEvents } from './helpers/reads.js';
import { EventFeedSchema } from '../src/api/schemas/events.js';

const ROWS = 1_203; // not a multiple of any page size below: the last page is a short one
let svc: TestService;
/** Ids as the service made them, newest first (the order of both lists). */
let messageIds: string[];
let eventIds: string[];
let cfg: string;

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  cfg = mkdtempSync(join(tmpdir(), 'svc-list-streaming-'));
  const to = (await buy(svc)).phoneNumber as string;
  const base = svc.now();
  const msgs: string[] = [];
  for (let i = 0; i < ROWS; i++) {
    // Groups of three share a timestamp: the keyset's tie-break (seq) is exercised across pages.
    svc.setClock(base + Math.floor(i / 3));
    const res = await svc.call('POST', '/v1/sandbox/inbound-messages', { body: { from: '+14155550199', to, body: `row ${i}` } });
    expect(res.status, res.text).toBe(201);
    msgs.push(res.body.id);
  }
  // Each message is received with one message.received event, in the order they were sent.
  const events = await feedEvents(svc);
  expect(events.filter((e) => e.type === 'message.received').map((e) => e.messageId)).toEqual(msgs);
  messageIds = msgs.reverse();
  eventIds = events.map((e) => e.id).reverse();
  // 1,203 requests (a minute through two replicas on PostgreSQL): a bound that catches a hang, not a timing.
}, 300_000);

afterAll(async () => {
  await svc?.stop();
  rmSync(cfg, { recursive: true, force: true });
});

const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as { id: string; eventId?: string });

describe('--all streams every page once, in order', () => {
  it('svc messages list --all (pages of 17)', async () => {
    const out = ndjson(expectOk(await runSvc(['messages', 'list', '--all', '--limit', '17', '-o', 'ndjson'], { service: svc })).stdout);
    expect(out.map((m) => m.id)).toEqual(messageIds);
  });

  it('svc events list --all (pages of 17, newest first)', async () => {
    const out = ndjson(expectOk(await runSvc(['events', 'list', '--all', '--limit', '17', '-o', 'ndjson'], { service: svc })).stdout);
    expect(out.map((e) => e.eventId)).toEqual(eventIds);
  });

  it('svc events list --after <cursor> --all reads forward to the newest', async () => {
    const start = (await svc.call('GET', '/v1/events?order=asc&limit=10')).body.cursor as string;
    const out = ndjson(expectOk(await runSvc(['events', 'list', '--after', start, '--all', '--limit', '50', '-o', 'ndjson'], { service: svc })).stdout);
    expect(out.map((e) => e.eventId)).toEqual([...eventIds].reverse().slice(10));
  });
});

/** `node bin/svc.js ARGS` with stdout piped to us; `onStdout` may close the pipe or signal the child. */
function svcChild(args: string[], onStdout: (chunk: Buffer, child: ReturnType<typeof spawn>) => void): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: cfg, SVC_CONFIG_DIR: cfg, SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, NO_COLOR: '1' };
  const child = spawn(process.execPath, [BIN_PATH, ...args], { env, cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.on('data', (d: Buffer) => onStdout(d, child));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not end; stderr: ${stderr}`));
    }, 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('a reader that stops', () => {
  it('a closed pipe (`| head`) ends the list with exit 0 and nothing on stderr', async () => {
    let seen = 0;
    const r = await svcChild(['messages', 'list', '--all', '--limit', '5', '-o', 'ndjson'], (chunk, child) => {
      seen += chunk.length;
      child.stdout!.destroy(); // the reader has read its lines and goes away
    });
    expect(seen).toBeGreaterThan(0);
    expect(r).toEqual({ code: 0, signal: null, stderr: '' });
  });

  it('Ctrl-C in the middle of the stream ends it at once, without a stack trace', async () => {
    let lines = 0;
    let interrupted = false;
    const r = await svcChild(['events', 'list', '--all', '--limit', '5', '-o', 'ndjson'], (chunk, child) => {
      for (const byte of chunk) if (byte === 10) lines++;
      if (!interrupted && lines >= 20) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    expect(interrupted).toBe(true);
    expect(lines).toBeLessThan(ROWS);
    expect(r.code === 130 || r.signal === 'SIGINT').toBe(true);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

// The hot lists are written with JSON.stringify (http/lists.ts writeViewsAsIs), not through the
// zod response schema: their pages must still be exactly what the schema describes.
describe('the hot lists, written as their views', () => {
  it.each([
    ['/v1/messages?limit=20', MessagePage],
    ['/v1/conversations?limit=20', ConversationPage],
    ['/v1/events?limit=20', EventFeedSchema],
  ] as const)('GET %s answers JSON that its response schema accepts unchanged', async (path, schema) => {
    const res = await svc.call('GET', path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(schema.parse(res.body)).toEqual(res.body);
  });
});
