// Installing the packed package into an empty project, offline (shared by the package
// install test and the svc/testing example test). See test/package-install.test.ts for why
// each step is as it is.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './cli.js';

export interface LockEntry {
  version?: string;
  dev?: boolean;
  link?: boolean;
  optional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [k: string]: unknown;
}

export const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

export const pkg = readJson<{ name: string; version: string; license: string; bin: Record<string, string>; engines: Record<string, string>; dependencies: Record<string, string>}>(
  join(REPO_ROOT, 'package.json'),
);

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a child to its end (or kills it at the bound); never throws, so failures show their output. */
export function run(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string>; timeoutMs: number }): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => {
      stderr += `\n[killed after ${opts.timeoutMs} ms]`;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Where npm finds `name` from the package at `from` (its own node_modules, then each parent's). */
function resolveLockPath(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  for (let base = from; ; ) {
    const candidate = `${base ? `${base}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!base) return undefined;
    const at = base.lastIndexOf('/node_modules/');
    base = at < 0 ? '' : base.slice(0, at);
  }
}

/** The lock entries of `names` and everything they need (dependencies, optional ones, required peers). */
function closureOf(packages: Record<string, LockEntry>, names: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = names.map((n) => `node_modules/${n}`);
  while (queue.length) {
    const path = queue.pop()!;
    if (seen.has(path) || !packages[path]) continue;
    seen.add(path);
    const e = packages[path]!;
    const peers = Object.keys(e.peerDependencies ?? {}).filter((p) => !e.peerDependenciesMeta?.[p]?.optional);
    for (const dep of [...Object.keys(e.dependencies ?? {}), ...Object.keys(e.optionalDependencies ?? {}), ...peers]) {
      const found = resolveLockPath(packages, path, dep);
      if (found) queue.push(found);
    }
  }
  return seen;
}

/**
 * The registry's tarball URL of a locked package. An entry npm wrote without `resolved` would make
 * `npm ci` ask the registry for the package's metadata, which an offline install cannot; with it,
 * the tarball comes from the cache by its integrity.
 */
function registryTarball(path: string, version: string): string {
  const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
  return `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${version}.tgz`;
}

/**
 * The lockfile of an empty project that depends on the tarball only: this repository's production
 * entries; with `devDependencies` (names this repository locks), those and what they need as well.
 */
export function consumerLock(tarballRef: string, tarballIntegrity: string, devDependencies: string[] = []): object {
  const lock = readJson<{ packages: Record<string, LockEntry> }>(join(REPO_ROOT, 'package-lock.json'));
  const dev = closureOf(lock.packages, devDependencies);
  const devVersions = Object.fromEntries(devDependencies.map((n) => [n, lock.packages[`node_modules/${n}`]!.version!]));
  const packages: Record<string, unknown> = {
    '': { name: 'svc-install-check', dependencies: { [pkg.name]: tarballRef }, ...(devDependencies.length ? { devDependencies: devVersions } : {}) },
    [`node_modules/${pkg.name}`]: {
      version: pkg.version,
      resolved: tarballRef,
      integrity: tarballIntegrity,
      license: pkg.license,
      dependencies: pkg.dependencies,
      bin: pkg.bin,
      engines: pkg.engines,
    },
  };
  for (const [path, entry] of Object.entries(lock.packages)) {
    if (path === '' || entry.link) continue;
    if (entry.dev && !dev.has(path)) continue;
    packages[path] = entry.resolved || !entry.version ? entry : { ...entry, resolved: registryTarball(path, entry.version) };
  }
  return { name: 'svc-install-check', lockfileVersion: 3, requires: true, packages };
}

/**
 * prebuild-install's asset name for this platform: `{name}-v{version}-{runtime}-v{abi}-{platform}{libc}-{arch}.tar.gz`
 * (libc empty on glibc Linux, as prebuild-install's rc.js computes it).
 */
export function prebuildName(version: string): string {
  const glibc = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header?.glibcVersionRuntime;
  const libc = process.platform === 'linux' && !glibc ? 'musl' : '';
  return `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}${libc}-${process.arch}.tar.gz`;
}
