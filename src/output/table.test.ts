import { describe, expect, it } from 'vitest';
import { printList, printResource } from './formatters.js';
import { createTestIO, type TestIOOptions } from './io.js';
import { createListWriter } from './list-writer.js';
import { columnKind, columnRoles, fitColumns, fitColumnWidths, leftOutNote } from './table.js';
import type { ColumnDef } from './columns.js';

const now = new Date('2025-05-01T12:00:00.000Z');
const ESC = '\u001b';
const BOX_DRAWING = /[\u2500-\u257f]/; // │ ─ ┌ ┐ └ ┘ ├ ┤ ┬ ┴ ┼ and the rest of the block
const MESSAGE_COLUMNS = ['id', 'direction', 'from', 'to', 'status', 'segments', 'createdAt', 'body'];
/** The headers people read: the API's names in words (`createdAt` → `created`). */
const MESSAGE_HEADERS = ['id', 'direction', 'from', 'to', 'status', 'segments', 'created', 'body'];
const messages = [
  { id: 'msg_8Hq2xLw0PzR4kT7vN1cY', direction: 'outbound', from: '+14155550100', to: '+14155550123', status: 'delivered', segments: 1, createdAt: '2025-05-01T11:57:00.000Z', body: 'Your table for four is ready: come to the front desk and show this message' },
  { id: 'msg_3Fz9pQe5WmB2dJ6sK0aR', direction: 'inbound', from: '+442071838750', to: '+14155550100', status: 'received', segments: 2, createdAt: '2025-05-01T10:00:00.000Z', body: 'Thanks! On our way, see you in ten minutes or so' },
  { id: 'msg_Qw7Ee1Rt2Yu3Io4Pa5Sd', direction: 'outbound', from: '+14155550100', to: '+14155550177', status: 'undelivered', segments: 1, createdAt: '2025-04-30T12:00:00.000Z', body: 'Reminder: your booking is tomorrow at 7pm' },
];

async function list(opts: TestIOOptions, format?: 'table'): Promise<{ out: string; err: string; lines: string[]; header: string[]; rows: string[][] }> {
  const io = createTestIO(opts);
  await printList(io, messages, { columns: MESSAGE_COLUMNS, now, format });
  const lines = io.out().trimEnd().split('\n');
  // Columns are two spaces apart; no cell of these rows holds two spaces in a row or is empty.
  const [header, ...rows] = lines.map((line) => line.split(/ {2,}/));
  return { out: io.out(), err: io.err(), lines, header: header!, rows };
}

describe('a messages list on an 80-column terminal', () => {
  it('keeps id, direction, status (whole words) and the body (cut to what fits); the least useful columns are left out, said on stderr', async () => {
    const { out, err, lines, header, rows } = await list({ stdoutTTY: true, columns: 80 });
    expect(header).toEqual(['id', 'direction', 'from', 'status', 'body']);
    expect(rows.map((row) => row.slice(0, 4))).toEqual(messages.map((m) => [m.id, m.direction, m.from, m.status]));
    expect(out).not.toMatch(/deliver…|undeliv…|\+1415…/);
    expect(rows[0]![4]).toMatch(/^Your table .*…$/);
    expect(rows[1]![4]).toMatch(/^Thanks! .*…$/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(err).toBe('note: to, segments, created left out to fit 80 columns (-o json shows all)\n');
  });

  it('is compact and borderless: a header row, columns two spaces apart, no lines', async () => {
    const { out, lines } = await list({ stdoutTTY: true, columns: 80 });
    expect(out).not.toMatch(BOX_DRAWING);
    expect(lines).toHaveLength(1 + messages.length);
    expect(lines[0]).toMatch(/^id {24}direction {2}from {11}status {7}body$/);
    for (const line of lines) expect(line).toBe(line.trimEnd());
  });
});

describe('a messages list on a 120-column terminal', () => {
  it('has room for every column; only the body is cut', async () => {
    const { out, err, lines, header, rows } = await list({ stdoutTTY: true, columns: 120 });
    expect(header).toEqual(MESSAGE_HEADERS);
    expect(rows[0]!.slice(0, 7)).toEqual(['msg_8Hq2xLw0PzR4kT7vN1cY', 'outbound', '+14155550100', '+14155550123', 'delivered', '1', '3m ago']);
    expect(rows[1]!.slice(0, 7)).toEqual(['msg_3Fz9pQe5WmB2dJ6sK0aR', 'inbound', '+442071838750', '+14155550100', 'received', '2', '2h ago']);
    expect(rows[0]![7]).toMatch(/^Your table.*…$/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(120);
    expect(out).not.toMatch(BOX_DRAWING);
    expect(err).toBe('');
  });
});

describe('-o table into a pipe', () => {
  it('without COLUMNS is not squeezed: every column, every cell whole, ISO times', async () => {
    const { out, err, header, rows } = await list({ stdoutTTY: false, columns: 80 }, 'table');
    expect(header).toEqual(MESSAGE_HEADERS);
    expect(rows.map((row) => row[7])).toEqual(messages.map((m) => m.body));
    expect(rows.map((row) => row[6])).toEqual(messages.map((m) => m.createdAt));
    expect(out).not.toContain('…');
    expect(out).not.toMatch(BOX_DRAWING);
    expect(err).toBe('');
  });

  it('with COLUMNS fits that width like a terminal', async () => {
    const { err, lines, header, rows } = await list({ stdoutTTY: false, env: { COLUMNS: '80' } }, 'table');
    expect(header).toEqual(['id', 'direction', 'from', 'status', 'body']);
    expect(rows.map((row) => row[3])).toEqual(['delivered', 'received', 'undelivered']);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(err).toContain('left out to fit 80 columns');
  });

  it('with a wide COLUMNS keeps everything', async () => {
    const { out, header } = await list({ stdoutTTY: false, env: { COLUMNS: '250' } }, 'table');
    expect(header).toEqual(MESSAGE_HEADERS);
    expect(out).not.toContain('…');
  });
});

describe('colour and edge cases', () => {
  it('NO_COLOR: not one escape code, in a list or a single resource', async () => {
    const io = createTestIO({ stdoutTTY: true, color: false, columns: 80 });
    await printList(io, messages, { columns: MESSAGE_COLUMNS, now });
    await printResource(io, messages[0]!, { now });
    expect(io.out()).not.toContain(ESC);
  });

  it('with colour: a bold header and coloured statuses, cut and padded by their visible width', async () => {
    const io = createTestIO({ stdoutTTY: true, color: true, columns: 80 });
    await printList(io, messages, { columns: MESSAGE_COLUMNS, now });
    const plain = io.out().replace(/\u001b\[\d+m/g, '');
    expect(io.out()).toContain(`${ESC}[1mstatus${ESC}[22m`);
    expect(io.out()).toContain(`${ESC}[32mdelivered${ESC}[39m`);
    expect(io.out()).toContain(`${ESC}[31mundelivered${ESC}[39m`);
    const uncoloured = createTestIO({ stdoutTTY: true, color: false, columns: 80 });
    await printList(uncoloured, messages, { columns: MESSAGE_COLUMNS, now });
    expect(plain).toBe(uncoloured.out());
  });

  it('a list of no rows prints nothing (the command says so on stderr)', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 80 });
    await printList(io, [], { columns: MESSAGE_COLUMNS, now });
    expect(io.out()).toBe('');
  });

  it('a single resource is `key  value` lines, long values wrapped under their column', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 60 });
    await printResource(io, messages[0]!, { columns: ['id', 'status'], now });
    const lines = io.out().trimEnd().split('\n');
    expect(io.out()).not.toMatch(BOX_DRAWING);
    expect(lines[0]).toBe('id         msg_8Hq2xLw0PzR4kT7vN1cY');
    expect(lines[1]).toBe('status     delivered');
    expect(lines).toContain('createdAt  2025-05-01T11:57:00.000Z (3m ago)');
    const body = lines.slice(lines.findIndex((line) => line.startsWith('body')));
    expect(body.length).toBeGreaterThan(1);
    for (const line of body.slice(1)) expect(line.startsWith(' '.repeat(11))).toBe(true);
    expect(body.map((line) => line.slice(11)).join(' ')).toBe(messages[0]!.body);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(60);
  });

  it('a single resource into a pipe with -o table is not wrapped', async () => {
    const io = createTestIO({ stdoutTTY: false });
    await printResource(io, messages[0]!, { format: 'table', now });
    expect(io.out()).toContain(`body       ${messages[0]!.body}\n`);
  });

  it('--all: later pages continue the table; their long text is cut to the column, a status never', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 80 });
    const writer = createListWriter(io, { columns: MESSAGE_COLUMNS, now });
    await writer.writeRows([messages[0]!]);
    await writer.writeRows([{ ...messages[1]!, status: 'undelivered', body: 'x'.repeat(200) }]);
    await writer.end();
    const lines = io.out().trimEnd().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines.filter((line) => line.startsWith('id '))).toHaveLength(1);
    expect(lines[2]).toContain(' undelivered ');
    expect(lines[2]).toMatch(/x…$/);
  });
});

describe('which columns give way: one rule from each column kind', () => {
  it('tells identifiers, statuses, free text, times and the rest apart', () => {
    expect(columnKind('id', ['x'])).toBe('identifier');
    expect(columnKind('lastMessageId', ['msg_8Hq2xLw0PzR4kT7vN1cY'])).toBe('identifier');
    expect(columnKind('counterparty', ['+14155550123', null])).toBe('identifier');
    expect(columnKind('subaccount', ['5f0c2d9e-1b2c-4d5e-8f90-123456789abc'])).toBe('identifier');
    expect(columnKind('status', ['delivered'])).toBe('status');
    expect(columnKind('direction', ['outbound'])).toBe('status');
    expect(columnKind('emergency.enabled', [true, false])).toBe('status');
    expect(columnKind('body', ['ok'])).toBe('text');
    expect(columnKind('note', ['two words'])).toBe('text');
    expect(columnKind('tfvStatus', ['not_applicable'])).toBe('other');
    expect(columnKind('segments', [1, 2])).toBe('other');
    expect(columnKind('createdAt', ['2025-05-01T11:57:00.000Z'])).toBe('time');
    expect(columnKind('disabledReason', [null, ''])).toBe('empty');
  });

  it('the record id is the key; the first free text is the one people came for', () => {
    expect(columnRoles(['id', 'from', 'status', 'label', 'locality', 'createdAt'], ['identifier', 'identifier', 'status', 'text', 'text', 'time'])).toEqual(['key', 'identifier', 'status', 'text', 'moreText', 'time']);
    // No `id` column (conversations list): the first identifier is the key.
    expect(columnRoles(['counterparty', 'lastMessageId'], ['identifier', 'identifier'])).toEqual(['key', 'identifier']);
  });

  it('cuts other columns before free text, and never ids or statuses', () => {
    const headers = ['id', 'code', 'state', 'note'];
    const cells = [['num_0123456789abcdefghij', 'x'.repeat(29), 'active', 'a short note here ok']];
    const roles = columnRoles(headers, ['identifier', 'other', 'status', 'text']);
    // id 24, code 29, state 6, note 20, three gaps of 2 = 85.
    expect(fitColumnWidths(headers, cells, 80, roles)).toEqual([24, 24, 6, 20]);
    expect(fitColumnWidths(headers, cells, 60, roles)).toEqual([24, 8, 6, 16]);
    expect(fitColumnWidths(headers, cells, 20, roles)).toEqual([24, 8, 6, 12]);
  });

  it('leaves columns out least useful first until the free text has room, and never the key or a status', () => {
    const headers = ['id', 'to', 'status', 'count', 'createdAt', 'body'];
    const kinds = ['identifier', 'identifier', 'status', 'other', 'time', 'text'] as const;
    const cells = [['msg_8Hq2xLw0PzR4kT7vN1cY', '+14155550123', 'undelivered', '12', '3m ago', 'b'.repeat(40)]];
    expect(fitColumns(headers, cells, undefined, kinds).hidden).toEqual([]);
    expect(fitColumns(headers, cells, 200, kinds).hidden).toEqual([]);
    expect(fitColumns(headers, cells, 80, kinds).hidden).toEqual(['count']);
    expect(fitColumns(headers, cells, 70, kinds).hidden).toEqual(['count', 'createdAt']);
    expect(fitColumns(headers, cells, 60, kinds).hidden).toEqual(['to', 'count', 'createdAt']);
    // Nothing else can go: the body is cut below its minimum, then left out; id and status stay.
    expect(fitColumns(headers, cells, 45, kinds)).toMatchObject({ hidden: ['to', 'count', 'createdAt'], widths: [24, 11, 6] });
    expect(fitColumns(headers, cells, 30, kinds)).toMatchObject({ keep: [0, 2], hidden: ['to', 'count', 'createdAt', 'body'] });
  });

  it('a column with nothing in it goes first', () => {
    const headers = ['id', 'url', 'enabled', 'disabledReason', 'createdAt'];
    const cells = [['we_8Hq2xLw0PzR4kT7vN1cY', `https://example.com/${'x'.repeat(40)}`, 'true', '', '1mo ago']];
    const raw = ['we_8Hq2xLw0PzR4kT7vN1cY', cells[0]![1]!, true, null, '2025-04-01T11:57:00.000Z'];
    const kinds = headers.map((header, i) => columnKind(header, [raw[i]!]));
    expect(kinds).toEqual(['identifier', 'text', 'status', 'empty', 'time']);
    expect(fitColumns(headers, cells, 80, kinds).hidden).toEqual(['disabledReason']);
  });
});

describe('a list says which of its columns matter most (columns.ts)', () => {
  const calls = [
    { id: 'call_lzTOcfKdfTmly4HUFYrt', status: 'completed', from: '+14155550123', to: '+14155550100', direction: 'inbound', outcome: null, durationSeconds: 10, startedAt: '2025-05-01T11:57:00.000Z', answeredBy: '+14155550199' },
    { id: 'call_8Hq2xLw0PzR4kT7vN1cY', status: 'missed', from: '+14155550124', to: '+14155550100', direction: 'inbound', outcome: 'voicemail', durationSeconds: null, startedAt: '2025-05-01T10:00:00.000Z', answeredBy: null },
  ];
  const CALLS: ColumnDef[] = [
    'id',
    'status',
    { field: 'from', keep: 48 },
    { field: 'to', keep: 44 },
    { field: 'direction', keep: 12 },
    { field: 'outcome', keep: 15 },
    { field: 'durationSeconds', header: 'secs', keep: 45, fit: 'whole' },
    { field: 'startedAt', keep: 46 },
    { field: 'answeredBy', keep: 11 },
  ];

  it('keeps what the list ranks highest at 80 columns, under headers for people, and says what went in a note that fits', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 80 });
    await printList(io, calls, { columns: CALLS, now });
    const [header, ...rows] = io.out().trimEnd().split('\n').map((line) => line.split(/ {2,}/));
    expect(header).toEqual(['id', 'status', 'from', 'to', 'secs', 'started']);
    expect(rows[0]).toEqual(['call_lzTOcfKdfTmly4HUFYrt', 'completed', '+14155550123', '+14155550100', '10', '3m ago']);
    for (const line of io.out().split('\n')) expect([...line].length).toBeLessThanOrEqual(80);
    expect(io.err()).toBe('note: direction, outcome, answered by left out to fit 80 columns\n');
  });

  it('-o csv keeps the API names and every column', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 80 });
    await printList(io, calls, { columns: CALLS, now, format: 'csv' });
    expect(io.out().split('\n')[0]).toBe('id,status,from,to,direction,outcome,durationSeconds,startedAt,answeredBy');
  });

  it('the note stays inside a narrow terminal: as many names as fit, then how many more', () => {
    const hidden = ['direction', 'outcome', 'answered by', 'to', 'segments', 'created'];
    for (const width of [40, 60, 80, 100]) expect([...leftOutNote(hidden, width)].length).toBeLessThanOrEqual(width);
    expect(leftOutNote(hidden, 60)).toMatch(/^note: direction(, \w+)* and \d more left out to fit 60 columns/);
  });

  it('a `whole` column is never cut: a key prefix keeps what tells two keys apart', async () => {
    const keys = [
      { id: 'key_3r0824FdvBKhjRMT5tLr', name: 'the deploy key of the staging cluster', mode: 'test', prefix: 'sk_test_sIVr', createdAt: '2025-05-01T11:57:00.000Z', lastUsedAt: '2025-05-01T11:58:00.000Z' },
      { id: 'key_s9aRpqGYNa2Kez2HvZIH', name: 'bootstrap live key', mode: 'live', prefix: 'sk_live_z6XS', createdAt: '2025-05-01T11:57:00.000Z', lastUsedAt: null },
    ];
    const io = createTestIO({ stdoutTTY: true, columns: 70 });
    await printList(io, keys, { columns: ['id', 'name', 'mode', { field: 'prefix', keep: 45, fit: 'whole' }, 'createdAt', 'lastUsedAt'], now });
    expect(io.out()).toContain('sk_test_sIVr');
    expect(io.out()).toContain('sk_live_z6XS');
    for (const line of io.out().split('\n')) expect([...line].length).toBeLessThanOrEqual(70);
  });

  it('a `wrap` column breaks a long value over lines under its column and loses no character', async () => {
    const records = [
      { type: 'TXT', name: '_svc-verification.send.example.com', value: 'svc-verification=CeR1FmA8HvTwMP7TooNZJUYMTLK5r3er', purpose: 'verification', status: 'pending' },
      { type: 'TXT', name: 'send.send.example.com', value: 'v=spf1 include:spf.mail.svc.test ~all', purpose: 'spf', status: 'pending' },
    ];
    const io = createTestIO({ stdoutTTY: true, columns: 80 });
    await printList(io, records, { columns: ['type', { field: 'name', keep: 100, fit: 'wrap' }, { field: 'value', keep: 100, fit: 'wrap' }, 'purpose', 'status'], now });
    const lines = io.out().trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80);
    expect(io.out()).not.toContain('…');
    expect(io.err()).toBe('');
    const valueAt = lines[0]!.indexOf('value');
    const nameAt = lines[0]!.indexOf('name');
    const column = (from: number, to: number, rows: string[]) => rows.map((l) => l.slice(from, to).trimEnd()).join('');
    // The first record's lines (up to the next TXT), read back column by column.
    const next = lines.findIndex((l, i) => i > 1 && l.startsWith('TXT'));
    expect(column(valueAt, lines[0]!.indexOf('purpose'), lines.slice(1, next)).replace(/ +$/, '')).toBe(records[0]!.value);
    expect(column(nameAt, valueAt, lines.slice(1, next)).trim()).toBe(records[0]!.name);
    expect(lines[1]).toMatch(/verification\s+pending$/);
  });
});
