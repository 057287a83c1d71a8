import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { defaultDataDir, envValue, resolveConfigDir, type Env } from '../../config/paths.js';
import { readProfilesFile } from '../../config/profiles.js';
import { resolveSettings } from '../../config/resolve.js';
import type { Candidate, Lookup, TypedSettings } from './complete.js';
import type { CompletionTree, DynamicSource } from './tree.js';

// Values read at TAB time. Ids come only from a service on this machine (the local service, or
// whatever a profile points at on loopback), within a short timeout: a TAB never waits on the
// network or starts the service, and any failure completes nothing rather than printing an error.

/** A TAB press answers within about this long even when the service is slow or gone. */
export const LOOKUP_TIMEOUT_MS = 700;

type Row = Record<string, unknown>;
/** How one id source's rows become candidates; the list's path is in the tree (`lookups`). */
type Candidates = (row: Row) => Candidate | undefined;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

const CANDIDATES: Record<Exclude<DynamicSource, 'profiles' | 'subaccount-refs'>, Candidates> = {
  numbers: (r) => (str(r.phoneNumber) ? { value: r.phoneNumber as string, description: str(r.label) } : undefined),
  webhooks: (r) => (str(r.id) ? { value: r.id as string, description: str(r.url) } : undefined),
  keys: (r) => (str(r.id) ? { value: r.id as string, description: str(r.name) } : undefined),
  subaccounts: (r) => (str(r.id) ? { value: r.id as string, description: str(r.name) } : undefined),
  calls: (r) => (str(r.id) ? { value: r.id as string, description: [r.from, r.status].filter(str).join(' ') || undefined } : undefined),
  // Newest first: the message just sent is the one people look up.
  messages: (r) => (str(r.id) ? { value: r.id as string, description: [r.to, r.status].filter(str).join(' ') || undefined } : undefined),
  voicemails: (r) => (str(r.id) ? { value: r.id as string, description: str(r.from) } : undefined),
  devices: (r) => (str(r.id) ? { value: r.id as string, description: [r.userId, r.label].filter(str).join(' ') || undefined } : undefined),
  // The blocked number itself: every verb takes it as well as the entry's id.
  'blocked-numbers': (r) => (str(r.phoneNumber) ? { value: r.phoneNumber as string, description: str(r.reason) } : undefined),
  // The domain name: every domains verb takes it as well as the id.
  domains: (r) => (str(r.domain) ? { value: r.domain as string, description: str(r.status) } : undefined),
  emails: (r) => (str(r.id) ? { value: r.id as string, description: str(r.subject) } : undefined),
  suppressions: (r) => (str(r.address) ? { value: r.address as string, description: str(r.reason) } : undefined),
  brands: (r) => (str(r.id) ? { value: r.id as string, description: [r.legalName, r.status].filter(str).join(' ') || undefined } : undefined),
  campaigns: (r) => (str(r.id) ? { value: r.id as string, description: [r.name, r.status].filter(str).join(' ') || undefined } : undefined),
  sinks: (r) => (str(r.id) ? { value: r.id as string, description: str(r.url) } : undefined),
};

/**
 * `svc context use` takes a sub-account's id, or its name when no other sub-account has it (compared
 * as the command compares them: trimmed, any case): the unique names first, each with its id, then
 * every id with its name. A name that would not survive a shell's one-candidate-a-line reading (a
 * line break, a tab, any control character) is left out; its id still completes.
 */
function subaccountRefs(rows: Row[]): Candidate[] {
  const key = (name: string) => name.trim().toLowerCase();
  const counts = new Map<string, number>();
  for (const r of rows) if (str(r.name)) counts.set(key(r.name as string), (counts.get(key(r.name as string)) ?? 0) + 1);
  const names = rows.flatMap((r) => {
    const name = str(r.name);
    const id = str(r.id);
    if (!name || !id || counts.get(key(name)) !== 1 || /[\u0000-\u001f\u007f-\u009f]/.test(name)) return [];
    return [{ value: name, description: id }];
  });
  return [...names, ...rows.flatMap((r) => CANDIDATES.subaccounts(r) ?? [])];
}

/** Sources whose candidates depend on the whole list (a name is offered only when it is unique). */
const LIST_CANDIDATES: Partial<Record<DynamicSource, (rows: Row[]) => Candidate[]>> = { 'subaccount-refs': subaccountRefs };

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * GETs `url` and parses its JSON body (undefined unless 2xx), within `timeoutMs` of the call. With
 * node:http, not fetch: fetch's first call in a process loads its HTTP client, 250-400 ms of a
 * loaded machine (measured at a load average of 16; node:http 30-60 ms), which spent most of the
 * TAB's budget before the service was even asked.
 */
async function getJson(url: URL, headers: Record<string, string>, timeoutMs: number): Promise<unknown> {
  const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
  return await new Promise((resolve, reject) => {
    // One request, its connection closed after (no keep-alive socket holding the process open).
    const req = send(url, { method: 'GET', headers, agent: false } satisfies RequestOptions, (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const ok = res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300;
        try {
          resolve(ok ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined);
        } catch (err) {
          reject(err as Error);
        }
      });
    });
    const bound = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('close', () => clearTimeout(bound));
    req.on('error', reject);
    req.end();
  });
}

export interface LookupEnvironment {
  env: Env;
  homedir: string;
  platform: string;
  configDir?: string;
}

export function createLookup(environment: LookupEnvironment, lists: NonNullable<CompletionTree['lookups']> = {}): Lookup {
  const configDir = () => resolveConfigDir(environment.configDir, environment.env, environment.homedir, environment.platform);
  return async (source: DynamicSource, typed: TypedSettings): Promise<Candidate[]> => {
    try {
      if (source === 'profiles') return readProfilesFile(configDir()).names().map((value) => ({ value }));
      const settings = resolveSettings({
        flags: { profile: typed.profile, baseUrl: typed.baseUrl, subaccount: typed.subaccount },
        env: environment.env,
        store: readProfilesFile(configDir()),
        dataDir: defaultDataDir(environment.env, environment.homedir),
      });
      if (!settings.apiKey || !LOOPBACK_HOSTS.has(new URL(settings.baseUrl).hostname)) return [];
      const spec = lists[source];
      if (!spec) return [];
      const headers: Record<string, string> = { authorization: `Bearer ${settings.apiKey}`, accept: 'application/json' };
      if (spec.scoped && settings.subaccount) headers['service-subaccount'] = settings.subaccount;
      const body = (await getJson(new URL(`${settings.baseUrl}${spec.path}${spec.paged ? '?limit=100' : ''}`), headers, LOOKUP_TIMEOUT_MS)) as { data?: unknown } | undefined;
      if (!Array.isArray(body?.data)) return [];
      const rows = body.data.filter((row): row is Row => Boolean(row) && typeof row === 'object');
      const fromList = LIST_CANDIDATES[source];
      if (fromList) return fromList(rows);
      const candidate = CANDIDATES[source as keyof typeof CANDIDATES];
      return rows.flatMap((row) => candidate(row) ?? []);
    } catch (err) {
      // SVC_DEBUG shows why a TAB completed no ids (a TAB is otherwise silent).
      if (envValue(environment.env, 'SVC_DEBUG')) process.stderr.write(`svc __complete: ${source}: ${(err as Error).message}\n`);
      return [];
    }
  };
}
