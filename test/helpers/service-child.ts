// The BUILT service as a real child process (`service-process.mjs`), for the proofs that kill it with
// SIGKILL (the crash proofs: mid-burst, mid-advance, live emails in flight). Shared by the
// crash tests: start a child on a data dir, talk to it over loopback with one connection pool per
// run (a killed child's sockets are dead), page lists, run requests a pool at a time, wait for a
// condition with a deadline.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { request, type Agent } from 'undici';
import { REPO_ROOT } from './cli.js';
import type { TestService } from './service.js';

const CHILD = join(REPO_ROOT, 'test', 'helpers', 'service-process.mjs');

/**
 * How long the service may take to start: a bound against a hang, not a timing; it leaves room for
 * a CI machine whose 2 cores are shared with other test files and processes.
 */
export const START_TIMEOUT_MS = 30_000;

export interface Child {
  proc: ChildProcess;
  baseUrl: string;
  liveKey: string;
  testKey: string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts the built service on `dataDir` (port 0) and resolves once it prints its address. */
export async function startChild(dataDir: string, clock: 'system' | 'manual' = 'system', env: Record<string, string> = {}): Promise<Child> {
  const proc = spawn(process.execPath, [CHILD, dataDir, clock], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stderr = '';
  proc.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.once('exit', (code, signal) => resolve({ code, signal })));
  const first = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start in ${START_TIMEOUT_MS} ms; stderr: ${stderr}`)), START_TIMEOUT_MS);
    createInterface({ input: proc.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(line);
    });
    void exited.then(({ code, signal }) => reject(new Error(`the service exited (${code ?? signal}) before it listened; stderr: ${stderr}`)));
  });
  return { proc, exited, ...(JSON.parse(first) as { baseUrl: string; liveKey: string; testKey: string }) };
}

/** Kills what is still running of `children` (afterAll). */
export function killAll(children: readonly Child[]): void {
  for (const c of children) if (c.proc.exitCode === null && c.proc.signalCode === null) c.proc.kill('SIGKILL');
}

// One connection pool per phase: after the kill its sockets are dead, and a fresh agent keeps
// undici from reusing them against the new port.
export type Call = { status: number; headers: Record<string, string | string[] | undefined>; body: any };
export type Client = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<Call>;

export function client(baseUrl: string, key: string, agent: Agent): Client {
  return async (method, path, body, headers = {}) => {
    const res = await request(`${baseUrl}${path}`, {
      method: method as 'GET',
      dispatcher: agent,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
}

/** Every item of a cursor-paged list (`{data, hasMore, cursor}`). */
export async function all(call: Client, path: string, limit: number, cursorParam: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const page = await call('GET', `${path}${sep}limit=${limit}${cursor ? `&${cursorParam}=${encodeURIComponent(cursor)}` : ''}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    out.push(...page.body.data);
    if (!page.body.hasMore) return out;
    cursor = page.body.cursor ?? page.body.nextCursor;
    expect(cursor, 'a page with more has a cursor').toBeTruthy();
  }
}

/** Runs `fn` over `items`, `inFlight` at a time. */
export async function pool<T>(items: T[], inFlight: number, fn: (item: T) => Promise<void>): Promise<void> {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await fn(item);
    }),
  );
}

/** Waits for a condition, checking every 100 ms; throws after `timeoutMs` (a bound against a hang). */
export const until = async (what: string, done: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> => {
  const end = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** The child as the fixtures see a test service: `call(method, path, {key, headers, body})` (key default: live). */
export function fixtureService(child: Child, agent: Agent): TestService {
  const call = async (method: string, path: string, o: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {}) => {
    const key = o.key === undefined ? child.liveKey : o.key;
    const res = await request(`${child.baseUrl}${path}`, {
      method: method as 'GET',
      dispatcher: agent,
      headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), ...(o.body === undefined ? {} : { 'content-type': 'application/json' }), ...(o.headers ?? {}) },
      body: o.body === undefined ? undefined : JSON.stringify(o.body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers as Record<string, string>, body: text ? JSON.parse(text) : undefined, text };
  };
  return { call } as unknown as TestService;
}
