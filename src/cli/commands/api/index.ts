import { defineVerb } from '../../verb.js';
import { HTTP_METHODS } from './methods.js';

// svc api: any endpoint, as the GitHub CLI's `gh api` (cli.md). `-F` is a field, as in `gh api`;
// `-f` means `--file` in every other verb, so here it is only the old spelling of `-F`.
export const command = defineVerb({
  name: 'api',
  summary: 'Call any endpoint: svc api METHOD PATH',
  args: [
    { name: 'method', help: HTTP_METHODS.join(', ') },
    { name: 'path', help: 'path under the base URL, e.g. /v1/numbers' },
  ],
  flags: [
    // No default value: commander would print `(default: [])` in the help; absent means none.
    { flags: '-F, --field <key=value>', help: 'a body field (query parameter for GET); key:=json for typed values; repeatable', repeatable: true, aliases: ['-f'] },
    { flags: '--input <file>', help: 'the request body as JSON from a file, or - for standard input', local: { content: 'body' } },
    { flags: '--paginate', help: 'follow nextCursor and print every row' },
    { flags: '--idempotency-key <key>', help: 'for POST; generated when omitted' },
  ],
  details: `-f is the old spelling of -F: it still works (for a while), with a one-line notice on a terminal's
stderr. Everywhere else -f is --file.`,
  examples: [
    'svc api GET /v1/keys -F limit:=5',
    'svc api POST /v1/keys -F name=ci -F mode=test',
    'svc api GET /v1/messages --paginate -o ndjson',
    `echo '{"name":"x"}' | svc api POST /v1/subaccounts --input -`,
  ],
  // Any method: it may change anything (svc mcp marks it destructive; --read-only leaves it out).
  changes: true,
  run: async () => (await import('./api.run.js')).runApi,
});
