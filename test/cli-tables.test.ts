// Tables end to end (issue 8, point 8): `svc messages list` at 80 columns keeps the body and whole
// status words, in the compact borderless look; `-o table` into a pipe is only fitted to a width
// when COLUMNS gives one. In-process for the terminal, real child processes for the pipe and the
// environment (needs `npm run build`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIO } from '../src/output/io.js';
import { assertBuilt, expectOk, runSvc, runSvcProcess } from './helpers/cli.js';
import { startTestService, type TestService } from './helpers/service.js';

let svc: TestService;
const BODIES = [
  'Your table for four is ready: come to the front desk and show this message',
  'Reminder: your booking at the harbour restaurant is tomorrow at 7pm, reply C to cancel',
];
const BOX_DRAWING = /[\u2500-\u257f]/;
const STATUS_WORDS = /^(queued|sending|sent|delivered|undelivered|failed|received)$/;

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  const key = svc.bootstrap.testKey;
  const found = JSON.parse(expectOk(await runSvc(['numbers', 'search', '--type', 'tollfree', '--limit', '100', '-o', 'json'], { service: svc })).stdout) as {
    phoneNumber: string;
    capabilities: { sms: boolean };
  }[];
  const from = found.find((n) => n.capabilities.sms)!.phoneNumber;
  expectOk(await runSvc(['numbers', 'buy', from, '--yes', '-o', 'json'], { service: svc }));
  for (const [i, body] of BODIES.entries()) {
    expectOk(await runSvc(['messages', 'send', '--to', `+1415555012${i}`, '--from', from, '--body', body, '--wait'], { service: svc, key }));
  }
});

afterAll(async () => {
  await svc?.stop();
});

const cells = (line: string) => line.split(/ {2,}/);

describe('svc messages list', () => {
  it('on an 80-column terminal: borderless, the body is shown (cut to fit) and status words are whole', async () => {
    const io = createTestIO({ stdoutTTY: true, stderrTTY: true, stdinTTY: true, columns: 80 });
    const res = expectOk(await runSvc(['messages', 'list'], { service: svc, key: svc.bootstrap.testKey, io }));
    const [header, ...rows] = res.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^id\s+direction\s.*\bstatus\s+body$/);
    expect(rows).toHaveLength(BODIES.length);
    const head = cells(header!);
    for (const row of rows) {
      const values = cells(row);
      expect(values[head.indexOf('status')]).toMatch(STATUS_WORDS);
      expect(values[0]).toMatch(/^msg_[A-Za-z0-9]{20}$/);
      const body = values.at(-1)!;
      expect(body.endsWith('…')).toBe(true);
      expect(BODIES.some((full) => full.startsWith(body.slice(0, -1)))).toBe(true);
      expect(body.length).toBeGreaterThanOrEqual(12);
    }
    for (const line of res.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(res.stdout).not.toMatch(BOX_DRAWING);
    expect(res.stderr).toMatch(/^note: .* left out to fit 80 columns/m);
  });

  it('-o table into a pipe without COLUMNS: nothing cut, every column', async () => {
    const res = await runSvcProcess(['messages', 'list', '-o', 'table'], { service: svc, key: svc.bootstrap.testKey });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^id\s+direction\s+from\s+to\s+status\s+segments\s+createdAt\s+body$/);
    for (const body of BODIES) expect(res.stdout).toContain(body);
    expect(res.stdout).not.toContain('…');
    expect(res.stdout).not.toMatch(BOX_DRAWING);
    expect(res.stderr).toBe('');
  });

  it('-o table into a pipe with COLUMNS=80: fitted to 80 like a terminal, body kept', async () => {
    const res = await runSvcProcess(['messages', 'list', '-o', 'table'], { service: svc, key: svc.bootstrap.testKey, env: { COLUMNS: '80' } });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/\bstatus\s+body$/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(res.stderr).toContain('left out to fit 80 columns');
  });

  it('-o table into a pipe with COLUMNS=250: wide enough for all of it', async () => {
    const res = await runSvcProcess(['messages', 'list', '-o', 'table'], { service: svc, key: svc.bootstrap.testKey, env: { COLUMNS: '250' } });
    expect(res.code, res.stderr).toBe(0);
    for (const body of BODIES) expect(res.stdout).toContain(body);
  });
});
