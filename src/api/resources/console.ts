import type { ApiClient } from '../client/client.js';
import type { ConsoleLink } from '../schemas/console.js';
import { responseParser } from '../parsers.js';
import type { EndpointRef } from './endpoint.js';

const consoleLinkParser = responseParser('ConsoleLinkSchema');

export const consoleEndpoints = {
  link: { method: 'POST', path: '/v1/console/sessions' },
} as const satisfies Record<string, EndpointRef>;

/** POST /v1/console/sessions: a one-time link that opens the console as this key. */
export async function createConsoleLink(client: ApiClient): Promise<ConsoleLink> {
  // Never retried: a link is good once, and a retry would only mint another.
  return (await client.request({ method: 'POST', path: consoleEndpoints.link.path, schema: consoleLinkParser, maxAttempts: 1 })).data;
}
