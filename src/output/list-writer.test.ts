import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { renderList } from './formatters.js';
import { createTestIO, type IO } from './io.js';
import { createListWriter } from './list-writer.js';

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
  const display = { stdoutTTY: false, colorEnabled: false, columns: 80 };

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
    await stream(io, [[{ id: 'a', x: 1 }], [{ id: 'b', x: 2, extra: 'dropped' }]], {});
    expect(io.out()).toBe('a\t1\nb\t2\n');
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
    expect(lines.filter((line) => line.startsWith('┌'))).toHaveLength(1);
    expect(lines.filter((line) => line.startsWith('└'))).toHaveLength(1);
    expect(lines.filter((line) => /│ id\s+│/.test(line))).toHaveLength(1);
    expect(lines.filter((line) => /│ r\d\s+│/.test(line))).toHaveLength(5);
    expect(lines.at(-1)?.startsWith('└')).toBe(true);
    // Every line of the table has the same width: later pages reuse the first page's columns.
    expect(new Set(lines.map((line) => [...line].length)).size).toBe(1);
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
