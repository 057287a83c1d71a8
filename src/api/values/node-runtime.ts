// What the local service needs of the Node it runs on, said where the CLI and svc/testing meet it:
// the Node 24 releases that abort it, and a native addon built for another Node. Zod-free and
// dependency-free: the CLI's error path imports it.

/**
 * Node 24 before this release aborts the process (SIGABRT, exit 134) when the garbage collector frees
 * a better-sqlite3 database or statement: ObjectWrap's destructor asks Node for the current
 * environment, which a collection outside a call into JavaScript does not have
 * (`RemoveEnvironmentCleanupHook … Assertion failed: (env) != nullptr`). The check is in Node itself
 * (node_object_wrap.h is the same in 24.21 and 24.22), so it is the running Node that matters.
 * Measured: `new Database(':memory:').close()` 200,000 times aborts on 24.0.0, 24.9.0, 24.18.1,
 * 24.19.0, 24.20.0 and 24.21.0, and exits 0 on 24.22.1, 24.22.3 and 22.23.5.
 */
export const NODE_24_FIXED_IN = '24.22.0';

/** The Node line to use instead when upgrading Node 24 is not possible. */
const OTHER_LINE = 22;

const parts = (version: string): number[] => version.replace(/^v/, '').split('.').map((n) => Number.parseInt(n, 10) || 0);

function before(version: string, than: string): boolean {
  const [a, b] = [parts(version), parts(than)];
  for (let i = 0; i < 3; i++) if ((a[i] ?? 0) !== (b[i] ?? 0)) return (a[i] ?? 0) < (b[i] ?? 0);
  return false;
}

/**
 * Why the local service refuses this Node, in one line (a detached service's reason is quoted from
 * its log's `error:` line), or undefined when it runs here. Refused rather than warned: the abort
 * comes at a garbage collection, so a service that started may die at any moment, and
 * `svc server snapshot load|reset` died every time on 24.21; an abort loses nothing accepted, but
 * in svc/testing it takes the app's test run with it.
 */
export function unsupportedNodeReason(version: string = process.versions.node): string | undefined {
  const major = parts(version)[0];
  if (major !== 24 || !before(version, NODE_24_FIXED_IN)) return undefined;
  return `Node ${version.replace(/^v/, '')} aborts the local service (on Node 24 before ${NODE_24_FIXED_IN}, freeing a better-sqlite3 database or statement crashes the process): upgrade Node to ${NODE_24_FIXED_IN} or later, or use Node ${OTHER_LINE}`;
}

/** Thrown where the local service's storage would open on a Node that aborts it. */
export class UnsupportedNodeError extends Error {
  override readonly name = 'UnsupportedNodeError';
}

/** Refuses, before anything opens, a Node that aborts the local service. */
export function refuseUnsupportedNode(version: string = process.versions.node): void {
  const reason = unsupportedNodeReason(version);
  if (reason) throw new UnsupportedNodeError(reason);
}

/**
 * A native addon built for another Node (a Node switched without a rebuild): the cause and the fix in
 * one line, or undefined for any other error. Node's own words name the file and both
 * NODE_MODULE_VERSIONs over five lines, the fix only as "npm rebuild or npm install", and the detached
 * service's log kept all but the first line from the terminal.
 */
export function addonMismatchHelp(err: unknown): string | undefined {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e?.code !== 'ERR_DLOPEN_FAILED' || typeof e.message !== 'string') return undefined;
  const versions = [...e.message.matchAll(/NODE_MODULE_VERSION (\d+)/g)].map((m) => m[1]);
  const file = /The module '([^']+)'/.exec(e.message)?.[1];
  if (versions.length < 2 || !file) return undefined;
  // …/DIR/node_modules/PKG/build/Release/x.node: PKG is rebuilt from DIR (where svc is installed).
  const at = file.lastIndexOf('/node_modules/');
  if (at < 0) return undefined;
  const dir = file.slice(0, at) || '/';
  const rest = file.slice(at + '/node_modules/'.length).split('/');
  const pkg = rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  return `${pkg}'s native addon was built for another Node.js (NODE_MODULE_VERSION ${versions[0]}; this Node, ${process.versions.node}, needs ${versions[1]}): svc was installed with another Node. Run \`npm rebuild ${pkg}\` in ${dir}, then try again`;
}
