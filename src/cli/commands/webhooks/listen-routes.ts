// `--forward-to URL` and `--forward-to TYPE_PATTERN=URL` (cli.md: webhooks listen): where each event
// goes. Routes are tried in the order given, the first match wins; a plain URL is the catch-all.
import { UsageError } from '../../errors.js';
import { requireHttpUrl } from './url-flag.js';
import { eventFilterError, eventFilterMatches } from '../../../api/schemas/events.js';

export interface ForwardRoute {
  /** Event filter entries (`*`, a type, `<family>.*`), as webhook endpoints take them. */
  patterns: string[];
  url: string;
}

const LOCAL_HOST_PORT = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])(:\d{1,5})?(\/.*)?$/i;

/**
 * A handler's URL. `localhost:3000/hooks` (no scheme, as people type it) means plain http on this
 * machine: a local handler has no certificate. Anything else must say its scheme.
 */
export function forwardUrl(raw: string): string {
  const value = raw.trim();
  const local = LOCAL_HOST_PORT.exec(value);
  return requireHttpUrl(local ? `http://${value}` : value, '--forward-to');
}

export async function parseForwardTo(values: readonly string[]): Promise<ForwardRoute[]> {
  return values.map((value) => {
    // A pattern has no ':' or '/', so `https://x/?a=b` is a plain URL, not a pattern.
    const m = /^([^=:/\s]+)=(.+)$/.exec(value.trim());
    if (!m) return { patterns: ['*'], url: forwardUrl(value) };
    const patterns = m[1]!.split(',').map((p) => p.trim()).filter((p) => p !== '');
    for (const p of patterns) {
      const error = eventFilterError(p);
      if (error) throw new UsageError(`--forward-to ${value}: ${error}`, '--forward-to');
    }
    return { patterns, url: forwardUrl(m[2]!) };
  });
}

export async function routeFor(routes: readonly ForwardRoute[], type: string): Promise<ForwardRoute | undefined> {
  return routes.find((r) => eventFilterMatches(r.patterns, type));
}

export const describeRoute = (r: ForwardRoute): string => `${r.patterns.join(',')} → ${r.url}`;

/** `--headers K:V`: extra request headers for the handler. */
export function parseHeaders(values: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const value of values) {
    const at = value.indexOf(':');
    const name = at > 0 ? value.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) throw new UsageError(`--headers: "${value}" is not NAME:VALUE`, '--headers');
    headers[name] = value.slice(at + 1).trim();
  }
  return headers;
}
