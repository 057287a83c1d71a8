import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { renderList } from './formatters.js';
import { createTestIO, type IO } from './io.js';
import { createListWriter } from './list-writer.js';

const display80 = { stdoutTTY: false, colorEnabled: false, stdoutColumns: undefined };

const row = (n: number) => ({ id: `r${n}`, n, nested: { ok: n % 2 === 0 }, tags: ['a', `t${n}`] });
const pagesOf = (sizes: number[]) => {
  let n = 0;
  return sizes.map((size) => Array.from({ length: size }, () => row(++n)));
};

async function stream(io: IO, pages: object[][], opts: Parameters<typeof createListWriter>[1]): Promise<void> {
  const writer = createListWriter(io, opts);
  for (const page of pages) await writer.writeRows(page);
  await writer.end();
}

describe('createListWriter json', () => {
  it.each([
    ['no pages', []],
    ['one empty page', [0]],
    ['one page of one', [1]],
    ['many pages', [3, 0, 1, 5]],
  ])('writes a valid JSON array for %s', async (_name, sizes) => {
    const pages = pagesOf(sizes);
    const io = createTestIO();
    await stream(io, pages, { format: 'json' });
    const all = pages.flat();
    expect(JSON.parse(io.out())).toEqual(all);
    // Byte for byte what printing the whole list at once gives.
    expect(io.out()).toBe(`${JSON.stringify(all, null, 2)}\n`);
  });

  it('writes each page as it arrives instead of holding rows until end()', async () => {
    const io = createTestIO();
    const writer = createListWriter(io, { format: 'json' });
    await writer.writeRows([row(1)]);
    expect(io.out()).toContain('"r1"');
    await writer.writeRows([row(2)]);
    expect(io.out()).toContain('"r2"');
    expect(writer.rowCount).toBe(2);
    await writer.end();
    await writer.end(); // idempotent
    expect(JSON.parse(io.out())).toHaveLength(2);
    await expect(writer.writeRows([row(3)])).rejects.toThrow(/after end/);
  });
});

describe('createListWriter other formats', () => {
  const pages = pagesOf([2, 1, 2]);
  const all = pages.flat();
  const display = { stdoutTTY: false, colorEnabled: false, stdoutColumns: undefined };

  it.each(['ndjson', 'csv', 'ids', 'yaml'] as const)('%s streamed equals %s printed at once', async (format) => {
    const io = createTestIO();
    await stream(io, pages, { format });
    expect(io.out()).toBe(await renderList(display, all, { format }));
  });

  it('csv writes its header once', async () => {
    const io = createTestIO();
    await stream(io, pages, { format: 'csv' });
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toBe('id,n,nested.ok,tags');
    expect(lines.filter((line) => line.startsWith('id,'))).toHaveLength(1);
    expect(lines[1]).toBe('r1,1,false,"a,t1"');
    expect(lines).toHaveLength(6);
  });

  it('csv with known columns and no rows is just the header', async () => {
    const io = createTestIO();
    await stream(io, [], { format: 'csv', columns: ['id', 'n'] });
    expect(io.out()).toBe('id,n\n');
  });

  it('yaml streams a sequence', async () => {
    const io = createTestIO();
    await stream(io, pages, { format: 'yaml' });
    expect(parseYaml(io.out())).toEqual(all);
  });

  it('defaults to tab-separated rows in a pipe with columns fixed by the first page', async () => {
    const io = createTestIO({ stdoutTTY: false });
    await stream(io, [[{ id: 'a', x: 1 }], [{ id: 'b', x: 2, extra: 'late' }, { id: 'c', x: 3, extra: 'again' }]], {});
    expect(io.out()).toBe('a\t1\nb\t2\nc\t3\n');
    // A field with no column is not dropped silently: stderr names it, once.
    expect(io.err()).toMatch(/^warning: "extra" first appears after the tab-separated columns were fixed/);
    expect(io.err().trimEnd().split('\n')).toHaveLength(1);
  });

  it('ids prints one id per line across pages', async () => {
    const io = createTestIO();
    await stream(io, pages, { format: 'ids' });
    expect(io.out()).toBe('r1\nr2\nr3\nr4\nr5\n');
  });

  it('continues one table across pages on a TTY', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 100 });
    await stream(io, pages, { columns: ['id', 'n'] });
    const lines = io.out().trimEnd().split('\n');
    expect(lines.filter((line) => /^id\s+n$/.test(line))).toHaveLength(1);
    expect(lines[0]).toMatch(/^id\s+n$/);
    expect(lines.filter((line) => /^r\d\s+\S+$/.test(line))).toHaveLength(5);
    // Later pages reuse the first page's columns: the second column starts at the same place.
    expect(new Set(lines.map((line) => line.search(/(?<=\s)\S+$/))).size).toBe(1);
  });

  it('prints nothing for an empty table and reports zero rows', async () => {
    const io = createTestIO({ stdoutTTY: true });
    const writer = createListWriter(io, {});
    await writer.writeRows([]);
    await writer.end();
    expect(io.out()).toBe('');
    expect(writer.rowCount).toBe(0);
  });
});

describe('createListWriter back-pressure', () => {
  it('waits for stdout to drain before taking the next page', async () => {
    const io = createTestIO();
    let drained = 0;
    let written = '';
    io.stdout = {
      write: (text) => {
        written += text;
        return false; // a slow reader: every write fills the buffer
      },
      drain: async () => {
        drained += 1;
      },
    };
    await stream(io, pagesOf([1, 1]), { format: 'ndjson' });
    expect(drained).toBe(2);
    expect(written.trimEnd().split('\n')).toHaveLength(2);
  });
});

// A number whose emergency address is null on page 1 and filled on page 2 (`numbers list --all`).
const noAddress = { id: 'n1', phoneNumber: '+14155550100', emergency: { enabled: false, address: null, status: 'off' } };
const withAddress = {
  id: 'n2',
  phoneNumber: '+14155550101',
  emergency: { enabled: true, address: { street: '1 Market St', street2: 'Floor 3', city: 'San Francisco', state: 'CA', zip: '94105' }, status: 'active' },
};
const ADDRESS_COLUMNS = ['id', 'phoneNumber', 'emergency.enabled', 'emergency.address.street', 'emergency.address.street2', 'emergency.address.city', 'emergency.address.state', 'emergency.address.zip', 'emergency.status'];

describe('streamed csv and tab-separated rows lose no nested data from later pages', () => {
  it('csv: a sub-object null on page 1 is written into its column as JSON on page 2', async () => {
    const io = createTestIO();
    await stream(io, [[noAddress], [withAddress]], { format: 'csv' });
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toBe('id,phoneNumber,emergency.enabled,emergency.address,emergency.status');
    expect(lines[1]).toBe('n1,+14155550100,false,,off');
    expect(lines[2]).toBe(
      'n2,+14155550101,true,"{""street"":""1 Market St"",""street2"":""Floor 3"",""city"":""San Francisco"",""state"":""CA"",""zip"":""94105""}",active',
    );
    expect(io.err()).toBe('');
  });

  it('csv with allColumns: the header is complete from page 1 and page 2 fills its own columns', async () => {
    const io = createTestIO();
    await stream(io, [[noAddress], [withAddress]], { format: 'csv', columns: ['id'], allColumns: ADDRESS_COLUMNS });
    const lines = io.out().trimEnd().split('\n');
    expect(lines[0]).toBe(ADDRESS_COLUMNS.join(','));
    expect(lines[1]).toBe('n1,+14155550100,false,,,,,,off');
    expect(lines[2]).toBe('n2,+14155550101,true,1 Market St,Floor 3,San Francisco,CA,94105,active');
    // Streamed or in one go: the same bytes.
    expect(io.out()).toBe(await renderList(display80, [noAddress, withAddress], { format: 'csv', columns: ['id'], allColumns: ADDRESS_COLUMNS }));
    expect(io.err()).toBe('');
  });

  it('csv: a field no column holds is named on stderr, not dropped silently', async () => {
    const io = createTestIO();
    await stream(io, [[{ id: 'a' }], [{ id: 'b', late: 'x' }]], { format: 'csv' });
    expect(io.out()).toBe('id\na\nb\n');
    expect(io.err()).toContain('"late"');
    expect(io.err()).toContain('-o ndjson');
  });

  it('tab-separated rows with the command columns: the nested object becomes JSON in its column', async () => {
    const io = createTestIO();
    await stream(io, [[noAddress], [withAddress]], { columns: ['id', 'emergency.address'] });
    expect(io.out().split('\n')[1]).toBe('n2\t{"street":"1 Market St","street2":"Floor 3","city":"San Francisco","state":"CA","zip":"94105"}');
    // Fields outside the command's columns are left out on purpose: no warning.
    expect(io.err()).toBe('');
  });

  it('a table continued across pages shows the late sub-object as JSON too (cut to the column)', async () => {
    const io = createTestIO({ stdoutTTY: true, columns: 200 });
    await stream(io, [[noAddress], [withAddress]], { columns: ['id', 'emergency.address'] });
    // The column is as wide as page 1 made it (its header, `address`): the late JSON is cut to it.
    expect(io.out()).toMatch(/^n2  \{"stre…$/m);
  });
});
