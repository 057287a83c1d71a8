// Tables end to end: `svc messages list` at 80 columns keeps the body and whole
// status words, in the compact borderless look; `-o table` into a pipe is only fitted to a width
// when COLUMNS gives one. In-process for the terminal, real child processes for the pipe and the
// environment (needs `npm run build`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIO } from '../src/output/io.js';
import { assertBuilt, expectOk, runSvc, runSvcProcess } from './helpers/cli.js';
import { printList } from '../src/output/formatters.js';
import { CALL_LIST_COLUMNS } from '../src/cli/commands/calls/columns.js';
import { EMAIL_LIST_COLUMNS } from '../src/cli/commands/emails/columns.js';
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
    // When it was sent stays; the direction and the segment count go first.
    expect(header).toMatch(/^id\s+to\s+status\s+created\s+body$/);
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
    expect(res.stderr).toMatch(/^note: direction, from, segments left out to fit 80 columns/m);
    for (const line of res.stderr.split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('-o table into a pipe without COLUMNS: nothing cut, every column', async () => {
    const res = await runSvcProcess(['messages', 'list', '-o', 'table'], { service: svc, key: svc.bootstrap.testKey });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout.split('\n')[0]).toMatch(/^id\s+direction\s+from\s+to\s+status\s+segments\s+created\s+body$/);
    for (const body of BODIES) expect(res.stdout).toContain(body);
    expect(res.stdout).not.toContain('…');
    expect(res.stdout).not.toMatch(BOX_DRAWING);
    expect(res.stderr).toBe('');
  });

  it('-o table into a pipe with COLUMNS=80: fitted to 80 like a terminal, body kept', async () => {
    const res = await runSvcProcess(['messages', 'list', '-o', 'table'], { service: svc, key: svc.bootstrap.testKey, env: { COLUMNS: '80' } });
    expect(res.code, res.stderr).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    // ISO times in a pipe (wider than `3m ago`): when it was sent still stays, the body too.
    expect(lines[0]).toMatch(/\bstatus\s+created\s+body$/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(res.stderr).toContain('left out to fit 80 columns');
  });

  it('-o table into a pipe with COLUMNS=250: wide enough for all of it', async () => {
    const res = await runSvcProcess(['messages', 'list', '-o', 'table'], { service: svc, key: svc.bootstrap.testKey, env: { COLUMNS: '250' } });
    expect(res.code, res.stderr).toBe(0);
    for (const body of BODIES) expect(res.stdout).toContain(body);
  });
});

describe('svc keys list at 80 columns', () => {
  it('keeps each key prefix whole (what tells two keys apart), under headers for people', async () => {
    const io = createTestIO({ stdoutTTY: true, stderrTTY: true, stdinTTY: true, columns: 80 });
    const res = expectOk(await runSvc(['keys', 'list'], { service: svc, io }));
    const [header, ...rows] = res.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^id\s+name\s+mode\s+prefix\s+created\s+last used$/);
    const prefixes = rows.map((row) => cells(row)[3]);
    expect(prefixes.length).toBeGreaterThan(1);
    for (const prefix of prefixes) expect(prefix).toMatch(/^sk_(live|test)_[A-Za-z0-9]{4}$/);
    for (const line of res.stdout.trimEnd().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
  });

  it('-o csv keeps the API names', async () => {
    const res = expectOk(await runSvc(['keys', 'list', '-o', 'csv'], { service: svc }));
    expect(res.stdout.split('\n')[0]).toBe('id,name,mode,prefix,createdAt,lastUsedAt,revokedAt');
  });
});

describe('the columns calls and emails keep at 80 columns', () => {
  const now = new Date('2025-05-01T12:00:00.000Z');
  const at80 = () => createTestIO({ stdoutTTY: true, stderrTTY: true, columns: 80, color: false });

  it('calls: who called, when and for how long stay; the direction, outcome and who answered go', async () => {
    const rows = ['completed', 'missed'].map((status, i) => ({
      id: `call_lzTOcfKdfTmly4HUFYr${i}`, numberId: 'num_lzTOcfKdfTmly4HUFYrt', direction: 'inbound', from: '+14155550123', to: '+14155550100', status,
      startedAt: '2025-05-01T11:57:00.000Z', answeredAt: null, endedAt: null, durationSeconds: status === 'completed' ? 31 : null,
      answeredBy: status === 'completed' ? '+14155550199' : null, answeredDevice: null, outcome: status === 'missed' ? 'voicemail' : null, recordingId: null, voicemailId: null,
    }));
    const io = at80();
    await printList(io, rows, { columns: CALL_LIST_COLUMNS, now });
    const [header, first] = io.out().trimEnd().split('\n');
    expect(cells(header!)).toEqual(['id', 'status', 'from', 'to', 'secs', 'started']);
    expect(cells(first!)).toEqual(['call_lzTOcfKdfTmly4HUFYr0', 'completed', '+14155550123', '+14155550100', '31', '3m ago']);
    expect(io.err()).toBe('note: direction, outcome, answered by left out to fit 80 columns\n');
  });

  it('emails: the recipient stays whole (wrapped if long), the sender goes first', async () => {
    const to = ['ada.lovelace@analytical-engines.example.org', 'grace@example.org'];
    const rows = [{ id: 'eml_lzTOcfKdfTmly4HUFYrt', status: 'bounced', from: 'Acme Billing <billing@send.acme.example.com>', to, subject: 'Your invoice for May is ready', createdAt: '2025-05-01T11:57:00.000Z' }];
    const io = at80();
    await printList(io, rows, { columns: EMAIL_LIST_COLUMNS, now });
    const lines = io.out().trimEnd().split('\n');
    expect(cells(lines[0]!)).toEqual(['id', 'status', 'to', 'subject', 'created']);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    const at = lines[0]!.indexOf('to');
    const width = lines[0]!.indexOf('subject') - at;
    expect(lines.slice(1).map((l) => l.slice(at, at + width).trimEnd()).join('')).toBe(to.join(','));
    expect(io.err()).toBe('note: from left out to fit 80 columns (-o json shows all)\n');
  });

  it('failure states are red like success is green', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 120, color: true });
    const rows = ['bounced', 'missed', 'failed', 'rejected', 'completed', 'delivered'].map((status, i) => ({ id: `eml_lzTOcfKdfTmly4HUFYr${i}`, status }));
    await printList(io, rows, { columns: ['id', 'status'], now });
    for (const bad of ['bounced', 'missed', 'failed', 'rejected']) expect(io.out()).toContain(`\u001b[31m${bad}\u001b[39m`);
    for (const good of ['completed', 'delivered']) expect(io.out()).toContain(`\u001b[32m${good}\u001b[39m`);
  });
});
