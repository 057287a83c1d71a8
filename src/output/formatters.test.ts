import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { parseOutputFormat, printList, printResource, renderList, renderResource, resolveFormat } from './formatters.js';
import { createTestIO } from './io.js';

const now = new Date('2024-06-01T12:00:00.000Z');
const numbers = [
  {
    id: 'num_1',
    number: '+15550000001',
    status: 'active',
    route: { kind: 'sip', target: 'sip:a@example.com' },
    tags: ['sales', 'east'],
    createdAt: '2024-06-01T11:57:00.000Z',
  },
  {
    id: 'num_2',
    number: '+15550000002',
    status: 'failed',
    route: null,
    tags: [],
    createdAt: '2024-05-27T12:00:00.000Z',
  },
];
const ESC = '\x1b[';

describe('parseOutputFormat', () => {
  it('accepts the formats of the spec', () => {
    expect(parseOutputFormat('json')).toBe('json');
    expect(parseOutputFormat(' NDJSON ')).toBe('ndjson');
  });

  it('rejects anything else, naming the allowed values', () => {
    expect(() => parseOutputFormat('xml')).toThrow(/table, json, yaml, ndjson, csv, ids/);
    expect(() => parseOutputFormat('tsv')).toThrow(/unknown output format "tsv"/);
  });
});

describe('resolveFormat', () => {
  it('uses a table on a terminal', () => {
    expect(resolveFormat({ stdoutTTY: true })).toEqual({ format: 'table', kind: 'list' });
    expect(resolveFormat({ stdoutTTY: true, kind: 'resource' })).toEqual({ format: 'table', kind: 'resource' });
  });

  it('uses tab-separated lists and JSON resources in a pipe', () => {
    expect(resolveFormat({ stdoutTTY: false }).format).toBe('tsv');
    expect(resolveFormat({ stdoutTTY: false, kind: 'resource' }).format).toBe('json');
  });

  it('lets an explicit request win everywhere', () => {
    expect(resolveFormat({ requested: 'table', stdoutTTY: false }).format).toBe('table');
    expect(resolveFormat({ requested: 'yaml', stdoutTTY: true, kind: 'resource' }).format).toBe('yaml');
  });
});

describe('printList defaults', () => {
  it('prints tab-separated rows without header, colour or borders when stdout is not a TTY', async () => {
    const io = createTestIO({ stdoutTTY: false, color: false });
    await printList(io, numbers, { columns: ['id', 'status', 'route', 'createdAt'], now });
    expect(io.out()).toBe(
      'num_1\tactive\tsip\tsip:a@example.com\t2024-06-01T11:57:00.000Z\n' +
        // route is null here: `route` still expands to the dotted columns, both empty.
        'num_2\tfailed\t\t\t2024-05-27T12:00:00.000Z\n',
    );
    expect(io.err()).toBe('');
  });

  it('uses every flattened column in a pipe when none are chosen', async () => {
    const io = createTestIO();
    await printList(io, [numbers[0]]);
    expect(io.out()).toBe('num_1\t+15550000001\tactive\tsip\tsip:a@example.com\tsales,east\t2024-06-01T11:57:00.000Z\n');
  });

  it('keeps each record on one line in a pipe', async () => {
    const io = createTestIO();
    await printList(io, [{ id: 'm1', body: 'two\nlines\tand tab' }]);
    expect(io.out()).toBe('m1\ttwo\\nlines\\tand tab\n');
  });

  it('draws a borderless table with a header and relative times on a TTY', async () => {
    const io = createTestIO({ stdoutTTY: true, color: false, columns: 120 });
    await printList(io, numbers, { columns: ['id', 'status', 'createdAt'], now });
    const out = io.out();
    expect(out).not.toMatch(/[│┌─]/);
    expect(out.split('\n')[0]).toMatch(/^id\s+status\s+created$/);
    expect(out).toContain('3m ago');
    expect(out).toContain('5d ago');
    expect(out).not.toContain('2024-06-01T11:57');
    expect(out).not.toContain(ESC);
    expect(out.trimEnd().split('\n')).toHaveLength(3); // header, 2 rows
  });

  it('keeps ISO times when a table is asked for in a pipe', async () => {
    const io = createTestIO({ stdoutTTY: false });
    await printList(io, numbers, { format: 'table', columns: ['id', 'createdAt'] });
    expect(io.out()).toContain('2024-06-01T11:57:00.000Z');
    expect(io.out()).not.toContain('ago');
  });

  it('fits the table to the terminal width by truncating the widest column', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 40 });
    await printList(io, [{ id: 'x1', body: 'a'.repeat(200) }]);
    const lines = io.out().trimEnd().split('\n');
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(40);
    expect(io.out()).toContain('…');
  });

  it('has no ANSI escapes anywhere when colour is disabled (NO_COLOR / --no-color)', async () => {
    const io = createTestIO({ stdoutTTY: true, color: false });
    await printList(io, numbers, { now });
    await printResource(io, numbers[0], { now });
    expect(io.out()).not.toContain(ESC);
  });

  it('colours headers and statuses when colour is enabled', async () => {
    const io = createTestIO({ stdoutTTY: true, color: true, columns: 120 });
    await printList(io, numbers, { columns: ['id', 'status'], now });
    expect(io.out()).toContain(`${ESC}1mid${ESC}22m`);
    expect(io.out()).toContain(`${ESC}32mactive${ESC}39m`);
    expect(io.out()).toContain(`${ESC}31mfailed${ESC}39m`);
  });
});

describe('printResource defaults', () => {
  it('prints pretty JSON when stdout is not a TTY', async () => {
    const io = createTestIO();
    await printResource(io, numbers[0]);
    expect(io.out()).toBe(`${JSON.stringify(numbers[0], null, 2)}\n`);
  });

  it('prints a key/value view of the flattened record on a TTY', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 100 });
    await printResource(io, numbers[0], { now, columns: ['number'] });
    const lines = io.out().split('\n');
    expect(lines[0]).toMatch(/^number\s+\+15550000001$/); // preferred key first
    expect(io.out()).toMatch(/^route\.kind\s+sip$/m);
    expect(io.out()).toContain('2024-06-01T11:57:00.000Z (3m ago)');
    expect(io.out()).not.toContain('[object Object]');
  });

  it('wraps long values instead of cutting them off', async () => {
    const url = `https://example.com/${'x'.repeat(120)}`;
    const io = createTestIO({ stdoutTTY: true, columns: 60 });
    await printResource(io, { id: 'w1', url });
    // `key  value` lines: the value column starts after the widest key and two spaces.
    const joined = io
      .out()
      .split('\n')
      .map((line) => line.slice('url'.length + 2).trim())
      .join('');
    expect(joined).toContain(url);
  });
});

describe('explicit formats', () => {
  const display = { stdoutTTY: false, colorEnabled: false, stdoutColumns: undefined };

  it('json list is pretty with a trailing newline', async () => {
    const text = await renderList(display, numbers, { format: 'json' });
    expect(text).toBe(`${JSON.stringify(numbers, null, 2)}\n`);
  });

  it('ndjson is one compact object per line', async () => {
    const text = await renderList(display, numbers, { format: 'ndjson' });
    const lines = text.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines.map((line) => JSON.parse(line))).toEqual(numbers);
  });

  it('yaml round-trips for lists and resources', async () => {
    expect(parseYaml(await renderList(display, numbers, { format: 'yaml' }))).toEqual(numbers);
    expect(parseYaml(await renderResource(display, numbers[0], { format: 'yaml' }))).toEqual(numbers[0]);
    expect(parseYaml(await renderList(display, [], { format: 'yaml' }))).toEqual([]);
  });

  it('ids prints the id field one per line', async () => {
    expect(await renderList(display, numbers, { format: 'ids' })).toBe('num_1\nnum_2\n');
    expect(await renderList(display, numbers, { format: 'ids', idField: 'number' })).toBe('+15550000001\n+15550000002\n');
    expect(await renderResource(display, numbers[1], { format: 'ids' })).toBe('num_2\n');
    expect(await renderList(display, [{ name: 'no id' }], { format: 'ids' })).toBe('');
  });

  it('csv has a header of flattened dotted columns, chosen columns first', async () => {
    const text = await renderList(display, numbers, { format: 'csv', columns: ['status'] });
    const [header, first, second] = text.split('\n');
    // route is null in the second row: it stays two empty dotted cells, not a third `route` column.
    expect(header).toBe('status,id,number,route.kind,route.target,tags,createdAt');
    expect(first).toBe('active,num_1,+15550000001,sip,sip:a@example.com,"sales,east",2024-06-01T11:57:00.000Z');
    expect(second).toBe('failed,num_2,+15550000002,,,,2024-05-27T12:00:00.000Z');
  });

  it('csv quotes commas, quotes and line breaks (RFC 4180)', async () => {
    const text = await renderList(display, [{ id: 'a', body: 'hi, "you"\nbye', plain: 'x' }], { format: 'csv' });
    expect(text).toBe('id,body,plain\na,"hi, ""you""\nbye",x\n');
  });

  it('csv of a single resource is a header and one row', async () => {
    expect(await renderResource(display, { id: 'a', n: 1 }, { format: 'csv' })).toBe('id,n\na,1\n');
  });
});
