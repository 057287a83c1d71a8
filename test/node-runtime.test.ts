// The Node the local service runs on, seen from a terminal: a Node 24 release that aborts it is
// refused with what to do, and a Node switched without rebuilding better-sqlite3 is told the cause and
// the fix, wherever the service would start (foreground, detached, auto-started by a command, svc/testing).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN_PATH, REPO_ROOT, assertBuilt } from './helpers/cli.js';
import { freePort } from './helpers/ports.js';
import { isAlive } from '../src/cli/local-service.js';

/** A child is bounded (a refusal takes a second; a hang is the failure). */
const CHILD_TIMEOUT_MS = 30_000;
/** Fetching Node 24 from the npm registry when the cache lacks it (about 30 MB). */
const FETCH_TIMEOUT_MS = 300_000;

let root: string;
const homes: string[] = [];

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-node-runtime-'));
});

/** The pids of services a HOME's data directories record (the default one and `--data HOME/data`). */
const recordedPids = (home: string): number[] =>
  [join(home, '.local', 'share', 'svc'), join(home, 'data')]
    .map((dir) => join(dir, 'server.json'))
    .filter((file) => existsSync(file))
    .map((file) => (JSON.parse(readFileSync(file, 'utf8')) as { pid: number }).pid);

afterAll(() => {
  // A run that went wrong may have started a service: leave none behind.
  for (const pid of homes.flatMap(recordedPids)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node ARGS` from a fresh HOME, with only PATH (and NODE_OPTIONS when given) from outside. */
function runNode(node: string, args: string[], home: string, nodeOptions?: string): Ran {
  const env: Record<string, string> = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) };
  const res = spawnSync(node, args, { cwd: root, env, encoding: 'utf8', timeout: CHILD_TIMEOUT_MS });
  return { code: res.status, stdout: res.stdout, stderr: res.stderr };
}

/** A fresh HOME whose `local` profile points at a free loopback port (not 4010, which another may hold). */
async function freshHome(name: string, node: string): Promise<string> {
  const home = join(root, name);
  homes.push(home);
  const port = await freePort();
  const added = runNode(node, [BIN_PATH, 'profiles', 'add', 'local', '--base-url', `http://127.0.0.1:${port}`], home);
  expect(added.code, added.stderr).toBe(0);
  return home;
}

/** svc/testing's startService from the built entry: what it rejected with, or `started`. */
const TESTING_SCRIPT = `
  const { startService } = await import(${JSON.stringify(join(REPO_ROOT, 'dist', 'testing', 'index.js'))});
  try { const s = await startService(); await s.close(); console.log('started'); } catch (e) { console.log('rejected: ' + e.message); }`;

/** No service was started for this HOME. */
function expectNoServiceStarted(home: string): void {
  expect(recordedPids(home), 'no service recorded').toEqual([]);
}

describe('a Node 24 release that aborts the local service (24.0 to 24.21)', () => {
  // The seam: this very Node, told at start-up that it is 24.21.0 (the CLI and svc/testing read
  // process.versions.node; NODE_OPTIONS carries it to any child they start).
  let fake: string;
  beforeAll(() => {
    fake = join(root, 'node-24.21.0.mjs');
    writeFileSync(fake, `Object.defineProperty(process.versions, 'node', { value: '24.21.0' });\n`);
  });
  const words = 'Node 24.21.0 aborts the local service (on Node 24 before 24.22.0, freeing a better-sqlite3 database or statement crashes the process): upgrade Node to 24.22.0 or later, or use Node 22';

  it('is refused with which releases and what to do: server start (foreground and detached), an auto-started command, snapshots, svc/testing', async () => {
    const home = await freshHome('refused', process.execPath);
    const opts = `--import=${fake}`;
    const data = join(home, 'data');
    for (const args of [
      ['server', 'start', '--port', '0', '--data', data],
      ['server', 'start', '--detach', '--port', '0', '--data', data],
      ['keys', 'list'],
      ['server', 'snapshot', 'list', '--data', data],
      ['server', 'reset', '--data', data],
    ]) {
      const res = runNode(process.execPath, [BIN_PATH, ...args], home, opts);
      expect({ args, code: res.code, stderr: res.stderr }).toEqual({ args, code: 1, stderr: `error: ${words}\n` });
    }
    expectNoServiceStarted(home);
    expect(existsSync(join(data, 'svc.db')), 'no database opened').toBe(false);
    const kit = runNode(process.execPath, ['--input-type=module', '-e', TESTING_SCRIPT], home, opts);
    expect(kit.stdout.trim(), kit.stderr).toBe(`rejected: ${words}`);
  });
});

/**
 * A Node whose ABI is not the one the installed addon was built for: Node 24 (from the npm registry,
 * cached in .cache/node-24 as scripts/test-on-node.sh keeps it) when these tests run on another line;
 * on Node 24 (`npm run test:node24`, which built the addon for 24), the machine's own Node it names.
 */
function otherNode(): string {
  if (process.versions.node.split('.')[0] !== '24') {
    const dir = execFileSync('bash', [join(REPO_ROOT, 'scripts', 'fetch-node.sh'), '24'], { encoding: 'utf8', timeout: FETCH_TIMEOUT_MS }).trim();
    return join(dir, 'bin', 'node');
  }
  const named = process.env.SVC_TEST_OTHER_NODE;
  if (!named) throw new Error('on Node 24, SVC_TEST_OTHER_NODE names the Node the addon was not built for (scripts/test-on-node.sh sets it)');
  return named;
}

describe('a Node switched without rebuilding the native addon', () => {
  let node: string;
  beforeAll(() => {
    node = otherNode();
  }, FETCH_TIMEOUT_MS);

  it('says the cause and `npm rebuild better-sqlite3` in the install directory: server start, an auto-started command, svc/testing', async () => {
    const modules = spawnSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim();
    expect(modules, 'a Node of another ABI').not.toBe(process.versions.modules);
    const home = await freshHome('switched', node);
    const cause = `better-sqlite3's native addon was built for another Node.js (NODE_MODULE_VERSION ${process.versions.modules}; this Node, `;
    const fix = `needs ${modules}): svc was installed with another Node. Run \`npm rebuild better-sqlite3\` in ${REPO_ROOT}, then try again`;
    for (const args of [['server', 'start', '--port', '0', '--data', join(home, 'data')], ['keys', 'list']]) {
      const res = runNode(node, [BIN_PATH, ...args], home);
      expect({ args, code: res.code }).toEqual({ args, code: 1 });
      // One line, on the terminal (an auto-started service's reason is quoted from its log).
      const lines = res.stderr.trim().split('\n');
      expect(lines, res.stderr).toHaveLength(1);
      expect(lines[0]).toContain(`error: ${cause}`);
      expect(lines[0]).toContain(fix);
    }
    expectNoServiceStarted(home);
    const kit = runNode(node, ['--input-type=module', '-e', TESTING_SCRIPT], home);
    expect(kit.stdout.trim(), kit.stderr).toContain(`rejected: ${cause}`);
    expect(kit.stdout.trim()).toContain(fix);
  });
});
