import { request } from 'undici';
import type { Bootstrap } from '../../src/config/bootstrap.js';
import type { TestService } from './service.js';

// A service the CLI started in a process of its own (`svc server start --detach`), spoken to as the
// fixtures speak to a test service: `call` and `baseUrl` only (no in-process deps, no clock of its own).

/** What the fixtures (`svc.call`, `svc.baseUrl`, `svc.bootstrap`) need, against a service at `baseUrl`. */
export function serviceAt(baseUrl: string, bootstrap: Bootstrap): TestService {
  const call: TestService['call'] = async (method, path, o = {}) => {
    const headers: Record<string, string> = { ...(o.headers ?? {}) };
    const key = o.key === undefined ? bootstrap.liveKey : o.key;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    let body: string | undefined;
    if (o.body !== undefined) {
      body = JSON.stringify(o.body);
      headers['content-type'] = 'application/json';
    }
    const res = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers as Record<string, string>, body: text ? JSON.parse(text) : undefined, text };
  };
  return { call, baseUrl, bootstrap } as unknown as TestService;
}

/** Waits for `check` to answer something (a bound against a hang, not a timing). */
export async function until<T>(what: string, check: () => T | undefined | Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await check();
    if (got !== undefined) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
