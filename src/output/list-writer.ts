// Streams a paginated list (`--all`) as pages arrive, in constant memory: each page is encoded
// and written, then forgotten, and a slow reader slows the paging down through drain().
// spec: Global flags, "--all (follow nextCursor, streaming rows as they arrive, constant memory)".
import { resolveFormat, type PrintOptions } from './formatters.js';
import { writeAndDrain, type IO } from './io.js';
import { createListEncoder, type ListEncoder } from './list-encoders.js';

export type ListWriterOptions = PrintOptions;

export interface ListWriter {
  /** Writes one page. Await each call before fetching the next page. */
  writeRows(rows: readonly object[]): Promise<void>;
  /** Closes the output (`]` for json, the table's bottom border). Safe to call twice. */
  end(): Promise<void>;
  /** Rows written so far: lets a command say "no numbers found" on stderr when it is 0. */
  readonly rowCount: number;
}

export function createListWriter(io: IO, opts: ListWriterOptions = {}): ListWriter {
  const { format } = resolveFormat({ requested: opts.format, stdoutTTY: io.stdoutTTY, kind: 'list' });
  let encoder: Promise<ListEncoder> | undefined;
  // A field a later page brings that has no column is said on stderr, never dropped silently.
  const warn = opts.warn ?? ((message: string) => void io.stderr.write(`${message}\n`));
  const getEncoder = (): Promise<ListEncoder> => (encoder ??= createListEncoder(format, io, { ...opts, warn }));
  let rowCount = 0;
  let ended = false;

  return {
    async writeRows(rows) {
      if (ended) throw new Error('list writer: writeRows() after end()');
      const text = await (await getEncoder()).page(rows);
      rowCount += rows.length;
      await writeAndDrain(io.stdout, text);
    },
    async end() {
      if (ended) return;
      ended = true;
      await writeAndDrain(io.stdout, await (await getEncoder()).end());
    },
    get rowCount() {
      return rowCount;
    },
  };
}
