// The output layer's public API. Nothing here imports chalk, yaml or ora at load
// time (they are imported when first used), so main.ts can import it without slowing `--help`.
export type { Display, IO, ProcessIOOptions, ProcessLike, TestIO, TestIOOptions, TextSink } from './io.js';
export { createProcessIO, createTestIO, shouldUseColor, writeAndDrain } from './io.js';
export type { Colors } from './colors.js';
export { loadColors } from './load-colors.js';
export type { ColumnDef, ColumnFit, ColumnSpec } from './columns.js';
export { peopleHeader } from './columns.js';
export type { FlatRecord, FlatValue } from './flatten.js';
export { columnsFor, expandColumns, flattenRecord } from './flatten.js';
export type {
  OutputFormat,
  OutputKind,
  PrintOptions,
  RenderFormat,
  RenderOptions,
  ResolvedFormat,
  ResolveFormatInput,
} from './formatters.js';
export {
  OUTPUT_FORMATS,
  parseOutputFormat,
  printList,
  printResource,
  renderList,
  renderResource,
  resolveFormat,
} from './formatters.js';
export type { ListWriter, ListWriterOptions } from './list-writer.js';
export { createListWriter } from './list-writer.js';
export type { Spinner } from './spinner.js';
export { startSpinner } from './spinner.js';
export { isIsoTimestamp, relativeTime } from './time.js';
