import { defineVerb } from '../../verb.js';
import { consoleEndpoints } from '../../../api/resources/console.js';
import { CONSOLE_LINK_TTL_SECS, CONSOLE_SESSION_TTL_SECS } from '../../../api/values/console.js';

// svc console: a one-time link to the service's web pages, opened in the browser.
export const command = defineVerb({
  name: 'console',
  summary: "Open the console: the service's web pages for this profile (--no-open prints the link)",
  flags: [{ flags: '--no-open', help: 'print the one-time link instead of opening the browser' }],
  details: `The console is served by the service itself under /console, for the current profile and context.
The link works once, within ${CONSOLE_LINK_TTL_SECS} seconds; the session it opens sees what the profile's key may see,
ends when that key is revoked, and lasts ${CONSOLE_SESSION_TTL_SECS / 3600} hours (real time: moving the service clock changes neither). -o json prints {"url": …} and opens nothing.`,
  examples: ['svc console', 'svc console --no-open', 'svc console --profile local-test -o json | jq -r .url'],
  // A session is minted (its link good once).
  changes: true,
  api: consoleEndpoints.link,
  run: async () => (await import('./console.run.js')).runConsole,
});
