import { describe, it, expect, afterEach } from 'vitest';
import http from 'node:http';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { probeAnswers, probeHealth, recordedServiceRuns, PID_FILE } from './local-service.js';
import { stopIfRunning } from './commands/server/server.run.js';

// A busy service answers 429 (another client holds its connections per address);
// that is an answer, so it is running: `svc server stop` must stop it, never drop its server.json.

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const clean of cleanups.splice(0).reverse()) clean();
});

async function answering(status: number): Promise<string> {
  const server = http.createServer((_req, res) => res.writeHead(status, { connection: 'close' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => server.close());
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function closedPort(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/** A process standing in for a busy service: it answers every request 429 and dies on SIGTERM. */
async function busyServiceProcess(): Promise<{ child: ChildProcess; baseUrl: string }> {
  const script = `
    const http = require('node:http');
    const server = http.createServer((req, res) => res.writeHead(429, { 'retry-after': '1', connection: 'close' }).end('{"error":{"code":"rate_limited"}}'));
    server.listen(0, '127.0.0.1', () => process.stdout.write(String(server.address().port) + '\\n'));
  `;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(out.trim());
    });
    child.on('exit', () => reject(new Error('the stand-in service exited before listening')));
  });
  return { child, baseUrl: `http://127.0.0.1:${port}` };
}

describe('is the local service running', () => {
  it('takes any HTTP answer (429, 503) as a running service, and only silence as none', async () => {
    const busy = await answering(429);
    const closing = await answering(503);
    const nobody = await closedPort();
    expect(await probeAnswers(busy)).toBe(true);
    expect(await probeAnswers(closing)).toBe(true);
    expect(await probeAnswers(nobody)).toBe(false);
    // Health (ready for requests, what a start waits for) is still only a 200.
    expect(await probeHealth(busy)).toBe(false);
    expect(await recordedServiceRuns({ pid: process.pid, baseUrl: busy, startedAt: new Date().toISOString() })).toBe(true);
  });

  it('svc server stop stops a service that answers 429 instead of forgetting it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-stop-busy-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const { child, baseUrl } = await busyServiceProcess();
    const info = { pid: child.pid!, baseUrl, startedAt: new Date().toISOString() };
    writeFileSync(join(dir, PID_FILE), JSON.stringify(info));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, sig) => resolve(sig)));

    const stopped = await stopIfRunning(dir);

    expect(stopped?.pid).toBe(child.pid);
    expect(await exited).toBe('SIGTERM');
    // The CLI did not drop the record of a service it judged alive (a real service removes its own on exit).
    expect(existsSync(join(dir, PID_FILE))).toBe(true);
  });
});
