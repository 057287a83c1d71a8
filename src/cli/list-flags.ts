import type { FlagDef } from './verb.js';

// The paging flags, the same on every list (cli.md: --cursor for paging in every list;
// `events list` adds the feed's own --after/--before).
export const LIST_FLAGS: readonly FlagDef[] = [
  { flags: '--limit <n>', help: 'rows in one page (1-100)', json: 'integer' },
  { flags: '--all', help: 'follow every page, streaming rows as they arrive' },
  { flags: '--cursor <cursor>', help: 'start from this page cursor (printed on stderr after a page)' },
];
