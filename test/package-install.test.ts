// Packaging: what `npm pack` ships, and that the tarball works once installed where nothing
// of this checkout is around — an empty project directory, an empty HOME (so an empty config and data
// directory): `svc --version`, `svc keys list` against the local service it starts itself, and
// `import { verifyWebhookSignature } from 'svc'` without the CLI or the service loaded.
//
// Offline by design (CI must not depend on the registry or GitHub being up):
// - the dependencies come from the npm cache that `npm ci` filled for this checkout: the empty project
//   gets a lockfile made from this repository's own (same versions, production entries only), so
//   `npm ci --offline` resolves nothing over the network;
// - better-sqlite3's install script (approved in the project's `allowScripts`, as a user would) runs
//   prebuild-install, which looks in a local prebuilds directory before downloading: we put there the
//   addon this checkout's own install produced, for the same version, platform and ABI. Compiling the
//   addon from source instead takes minutes on a CI runner, so a miss fails the bounded install.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, assertBuilt } from './helpers/cli.js';
import { consumerLock, pkg, prebuildName, readJson, run, type LockEntry } from './helpers/pack-install.js';
import { freePort } from './helpers/ports.js';
import { isAlive } from '../src/cli/local-service.js';

/** The whole install-and-run proof is bounded (seconds, not minutes). */
const INSTALL_TIMEOUT_MS = 60_000;
const CASE_TIMEOUT_MS = 90_000;
/** A tarball far above what the package is (about 0.5 MB) means something that is not the product got in. */
const MAX_PACKED_BYTES = 2_000_000;
/** The type declarations of the package's exports (`svc`, `svc/webhooks`, `svc/testing`, its Vitest setup), and no other. */
const PUBLISHED_TYPES = ['dist/index.d.ts', 'dist/webhooks/verify.d.ts', 'dist/testing/index.d.ts', 'dist/testing/vitest-setup.d.ts', 'dist/testing/types.d.ts', 'dist/api/values/chaos.d.ts'];

interface PackFile {
  path: string;
  size: number;
}
interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: PackFile[];
}

let root: string;
let pack: PackResult;
let tarball: string;
const startedPids = new Set<number>();

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-pack-'));
  // --ignore-scripts: `prepack` would rebuild dist/, which `npm test` has just built.
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  const parsed = JSON.parse(out) as PackResult[];
  expect(parsed).toHaveLength(1);
  pack = parsed[0]!;
  tarball = join(root, pack.filename);
  expect(existsSync(tarball)).toBe(true);
}, 60_000);

afterAll(async () => {
  // Whatever happened, leave no service behind.
  for (const pid of startedPids) {
    if (!isAlive(pid)) continue;
    process.kill(pid, 'SIGTERM');
    for (let i = 0; i < 50 && isAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
    if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  }
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('npm pack', () => {
  it('holds what a user needs and nothing else', () => {
    const paths = pack.files.map((f) => f.path);
    expect(paths.length).toBeGreaterThan(0);
    // What a user runs and reads.
    for (const needed of ['package.json', 'README.md', 'bin/svc.js', 'bin/package.json', 'dist/index.js', 'dist/index.d.ts', 'dist/webhooks/verify.js', 'dist/webhooks/verify.d.ts', 'dist/cli/main.js', 'dist/server/main.js', 'dist/cli/root-help.txt', 'dist/cli/version.txt', 'examples/sms-auto-responder.yaml']) {
      expect(paths, needed).toContain(needed);
    }
    const manPages = readdirSync(join(REPO_ROOT, 'man')).filter((f) => /\.\d$/.test(f));
    expect(manPages).toContain('svc.1');
    for (const page of manPages) expect(paths).toContain(`man/${page}`);
    const completions = readdirSync(join(REPO_ROOT, 'completions'));
    expect(completions.length).toBeGreaterThan(0);
    for (const file of completions) expect(paths).toContain(`completions/${file}`);
    // What it does not need: tests, benches, sources, scripts, source maps, internal type declarations.
    const unwanted = paths.filter(
      (p) =>
        /^(test|bench|src|scripts|node_modules|\.ci)\//.test(p) ||
        // The example suite of svc/testing (examples/testing/) is for users to run: it ships.
        (/\.test\.[cm]?[jt]s$/.test(p) && !p.startsWith('examples/testing/')) ||
        /\.map$/.test(p) ||
        (/\.d\.ts$/.test(p) && !PUBLISHED_TYPES.includes(p)) ||
        /^(tsconfig|vitest\.config|redocly)/.test(p),
    );
    expect(unwanted).toEqual([]);
    expect(pack.size).toBeLessThan(MAX_PACKED_BYTES);
    // No script npm runs when the package is installed (arborist's install-scripts.js: pre/install,
    // postinstall, and prepare for a package from a file or git): installing the tarball asks no
    // approval for svc itself, only better-sqlite3's (dist/ is in the tarball; `prepack` builds it).
    const shipped = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as { scripts?: Record<string, string> };
    expect(Object.keys(shipped.scripts ?? {}).filter((s) => ['preinstall', 'install', 'postinstall', 'prepare'].includes(s))).toEqual([]);
    // For the release note, which gives the package's size.
    console.log(`npm pack: ${pack.filename} ${pack.entryCount} files, ${pack.size} bytes packed, ${pack.unpackedSize} bytes unpacked`);
  });
});

describe('the tarball installed into an empty directory with an empty HOME', () => {
  it(
    'installs offline with its native addon, answers --version and keys list from the service it starts, and exports the verifier',
    async () => {
      const home = join(root, 'home');
      const project = join(root, 'project');
      const prebuilds = join(root, 'prebuilds');
      for (const dir of [home, project, prebuilds]) mkdirSync(dir);

      const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
      const ref = `file:../${pack.filename}`;
      writeFileSync(
        join(project, 'package.json'),
        // allowScripts: npm runs no dependency's install script unless the project approves it.
        JSON.stringify({ name: 'svc-install-check', private: true, dependencies: { [pkg.name]: ref }, allowScripts: { 'better-sqlite3': true } }, null, 2),
      );
      writeFileSync(join(project, 'package-lock.json'), JSON.stringify(consumerLock(ref, integrity), null, 2));

      const addonDir = join(REPO_ROOT, 'node_modules', 'better-sqlite3');
      const addonVersion = readJson<{ version: string }>(join(addonDir, 'package.json')).version;
      const lockedVersion = readJson<{ packages: Record<string, LockEntry> }>(join(REPO_ROOT, 'package-lock.json')).packages['node_modules/better-sqlite3']?.version;
      expect(addonVersion).toBe(lockedVersion);
      execFileSync('tar', ['-czf', join(prebuilds, prebuildName(addonVersion)), '-C', addonDir, 'build/Release/better_sqlite3.node']);

      const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
      expect(npmCache).not.toBe('');
      // Nothing of the caller's environment but PATH: no SVC_*, XDG_*, npm user config or HOME.
      const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
      const install = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
        cwd: project,
        // strict-allow-scripts: an install script the project has not approved fails the install rather
        // than running with a notice, so this proves the README's one approval is the whole story.
        env: { ...baseEnv, npm_config_cache: npmCache, npm_config_update_notifier: 'false', npm_config_strict_allow_scripts: 'true', npm_config_better_sqlite3_local_prebuilds: prebuilds },
        timeoutMs: INSTALL_TIMEOUT_MS,
      });
      expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);
      // No warning the user did not cause: not one about a Node the dependencies ask for (Node 20).
      expect(install.stderr).not.toContain('EBADENGINE');
      const installed = join(project, 'node_modules', 'better-sqlite3', 'build', 'Release');
      expect(existsSync(join(installed, 'better_sqlite3.node')), 'the install script fetched the addon').toBe(true);
      expect(existsSync(join(installed, 'obj.target')), 'prebuilt, not compiled').toBe(false);
      expect(existsSync(join(project, 'node_modules', pkg.name, 'test')), 'no tests installed').toBe(false);

      const svc = join(project, 'node_modules', '.bin', 'svc');
      expect(existsSync(svc)).toBe(true);
      const svcRun = (args: string[]) => run(svc, args, { cwd: project, env: baseEnv, timeoutMs: 30_000 });

      const version = await svcRun(['--version']);
      expect(version).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });

      // The built-in `local` profile on a free port rather than 4010, which a developer's own service
      // (or another test) may hold; everything else about the profile is the built-in one.
      const port = await freePort();
      const profile = await svcRun(['profiles', 'add', 'local', '--base-url', `http://127.0.0.1:${port}`]);
      expect(profile.code, profile.stderr).toBe(0);

      const dataDir = join(home, '.local', 'share', 'svc');
      const keys = await svcRun(['keys', 'list', '-o', 'json']);
      if (existsSync(join(dataDir, 'server.json'))) startedPids.add(readJson<{ pid: number }>(join(dataDir, 'server.json')).pid);
      expect(keys.code, keys.stderr).toBe(0);
      expect(keys.stderr).toContain(`started the local service at http://127.0.0.1:${port}`);
      const listed = JSON.parse(keys.stdout) as Array<{ id: string; mode: string }>;
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.map((k) => k.mode).sort()).toEqual(expect.arrayContaining(['live', 'test']));
      expect(keys.stdout).not.toMatch(/sk_(live|test)_[A-Za-z0-9]{8,}/);
      expect(existsSync(join(dataDir, 'bootstrap.json'))).toBe(true);

      const [pid] = [...startedPids];
      expect(pid).toBeGreaterThan(0);
      const stop = await svcRun(['server', 'stop']);
      expect(stop.code, stop.stderr).toBe(0);
      for (let i = 0; i < 50 && isAlive(pid!); i++) await new Promise((r) => setTimeout(r, 100));
      expect(isAlive(pid!)).toBe(false);

      // The library entry: a resolve hook records every module the import loads, to prove neither the
      // CLI nor the service (nor any dependency) comes with it. The hook runs on its own thread, whose
      // process.stderr is relayed to the main thread asynchronously and can lose its last lines when
      // the process exits; writeSync on fd 2 is written before the import goes on.
      const hook = `import { writeSync } from 'node:fs'; export async function resolve(s, c, next) { const r = await next(s, c); writeSync(2, 'LOADED ' + r.url + '\\n'); return r; }`;
      const script = `
        import { register } from 'node:module';
        register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
        const { verifyWebhookSignature, signWebhookPayload } = await import('svc');
        const sub = await import('svc/webhooks');
        const body = '{"id":"evt_1","type":"message.received"}';
        const header = signWebhookPayload(body, 'whsec_test');
        console.log(verifyWebhookSignature(body, header, 'whsec_test'), verifyWebhookSignature(body + ' ', header, 'whsec_test'), sub.verifyWebhookSignature === verifyWebhookSignature);`;
      const lib = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: project, env: baseEnv, timeoutMs: 30_000 });
      expect(lib.code, lib.stderr).toBe(0);
      expect(lib.stdout.trim()).toBe('true false true');
      const loaded = lib.stderr
        .split('\n')
        .filter((l) => l.startsWith('LOADED '))
        .map((l) => l.slice('LOADED '.length))
        .filter((u) => !u.startsWith('node:'));
      expect(loaded.length).toBeGreaterThan(0);
      const packageDir = `file://${join(project, 'node_modules', pkg.name)}/`;
      expect(loaded.map((u) => u.replace(packageDir, ''))).toEqual(expect.arrayContaining(['dist/index.js', 'dist/webhooks/verify.js']));
      expect(loaded.filter((u) => !['dist/index.js', 'dist/webhooks/verify.js'].includes(u.replace(packageDir, '')))).toEqual([]);
    },
    CASE_TIMEOUT_MS,
  );
});
