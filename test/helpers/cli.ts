import { expect } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli/main.js';
import { createTestIO, type TestIO } from '../../src/output/io.js';
import type { TestService } from './service.js';

/** The repository root, and the real launcher the package's `bin` entry points at. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BIN_PATH = join(REPO_ROOT, 'bin', 'svc.js');
export const DIST_MAIN = join(REPO_ROOT, 'dist', 'cli', 'main.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunSvcOptions {
  service: TestService;
  /** Extra or overriding variables; a value of `undefined` removes the variable. */
  env?: Record<string, string | undefined>;
  /** Text on standard input (for --api-key-stdin, --input -). */
  stdin?: string;
  /** Pretend stdin, stdout and stderr are a terminal. Default: piped. */
  tty?: boolean;
  /** SVC_API_KEY; default the service's bootstrap live key. */
  key?: string;
  /** Your own fake IO, to watch a long-running command's output while it runs (`tty` is then ignored). */
  io?: TestIO;
  /** The environment's Ctrl-C: the command stops when the promise this returns resolves. */
  waitForInterrupt?: () => Promise<void>;
}

const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), prefix));

function mergeEnv(base: Record<string, string | undefined>, extra: Record<string, string | undefined> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...base, ...extra })) if (v !== undefined) out[k] = v;
  return out;
}

/**
 * Runs `svc ARGS` in-process (runCli with a fake IO) against the test service. Each call gets a fresh
 * config dir and HOME (removed afterwards) unless `env.SVC_CONFIG_DIR` / `env.HOME` are given.
 */
/** Asserts exit 0, showing stderr when it is not; returns the result for chaining. */
export function expectOk(res: CliResult): CliResult {
  expect(res.code, `exit code; stderr: ${res.stderr}`).toBe(0);
  return res;
}

export async function runSvc(args: string[], opts: RunSvcOptions): Promise<CliResult> {
  const temps: string[] = [];
  const temp = (prefix: string) => {
    const dir = tempDir(prefix);
    temps.push(dir);
    return dir;
  };
  const given = opts.env ?? {};
  const env = mergeEnv(
    {
      SVC_BASE_URL: opts.service.baseUrl,
      SVC_API_KEY: opts.key ?? opts.service.bootstrap.liveKey,
      SVC_CONFIG_DIR: 'SVC_CONFIG_DIR' in given ? undefined : temp('svc-cli-config-'),
      SVC_DATA_DIR: opts.service.dataDir,
      HOME: 'HOME' in given ? undefined : temp('svc-cli-home-'),
    },
    given,
  );
  const tty = opts.tty ?? false;
  const io = opts.io ?? createTestIO({ stdoutTTY: tty, stderrTTY: tty, stdinTTY: tty, stdin: opts.stdin });
  try {
    const code = await runCli(args, { io, env, homedir: env.HOME ?? tmpdir(), binPath: BIN_PATH, waitForInterrupt: opts.waitForInterrupt });
    return { code, stdout: io.out(), stderr: io.err() };
  } finally {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  }
}

export interface RunSvcProcessOptions {
  /** When given: SVC_BASE_URL, SVC_API_KEY (`key` or the live key) and SVC_DATA_DIR point at it. */
  service?: TestService;
  env?: Record<string, string | undefined>;
  stdin?: string;
  key?: string;
  timeoutMs?: number;
}

/** Fails with a clear message when `npm run build` has not produced dist/ (bin/svc.js imports it). */
export function assertBuilt(): void {
  if (!existsSync(DIST_MAIN)) {
    throw new Error(`${DIST_MAIN} does not exist: run \`npm run build\` before the child-process tests (bin/svc.js imports dist/)`);
  }
}

/**
 * Runs `node bin/svc.js ARGS` as a real child process. The environment is built from scratch (PATH
 * only from ours), so nothing of the developer's own profile or SVC_* variables leaks in.
 */
export function runSvcProcess(args: string[], opts: RunSvcProcessOptions = {}): Promise<CliResult> {
  const given = opts.env ?? {};
  const temps: string[] = [];
  const temp = (prefix: string) => {
    const dir = tempDir(prefix);
    temps.push(dir);
    return dir;
  };
  const base: Record<string, string | undefined> = {
    PATH: process.env.PATH,
    HOME: 'HOME' in given ? undefined : temp('svc-proc-home-'),
    SVC_CONFIG_DIR: 'SVC_CONFIG_DIR' in given ? undefined : temp('svc-proc-config-'),
    NO_COLOR: '1',
  };
  if (opts.service) {
    base.SVC_BASE_URL = opts.service.baseUrl;
    base.SVC_API_KEY = opts.key ?? opts.service.bootstrap.liveKey;
    base.SVC_DATA_DIR = opts.service.dataDir;
  }
  const env = mergeEnv(base, given);
  const timeoutMs = opts.timeoutMs ?? 45_000;
  const cleanup = () => {
    for (const dir of temps) rmSync(dir, { recursive: true, force: true });
  };
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [BIN_PATH, ...args], { env, cwd: REPO_ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`svc ${args.join(' ')} did not finish within ${timeoutMs} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      cleanup();
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      cleanup();
      resolvePromise({ code: code ?? -1, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? '');
  });
}
