import { expect } from 'vitest';
import { request } from 'undici';
import type { TestService } from './helpers/service.js';

// Opening the console over HTTP as a browser would (the one-time link, the cookie), and
// sending its forms with the session's token from the console's own origin.

export interface ConsoleSession {
  cookie: string;
  /** The session's form token, read from a page as a browser would. */
  csrf: string;
}

export const sub = (id: string): Record<string, string> => ({ 'service-subaccount': id });

export async function mintLink(svc: TestService, key?: string, headers?: Record<string, string>): Promise<{ url: string; expiresAt: string }> {
  const res = await svc.call('POST', '/v1/console/sessions', { key, headers });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

export async function consoleGet(svc: TestService, path: string, cookie?: string, headers: Record<string, string> = {}) {
  const res = await request(`${svc.baseUrl}${path}`, { headers: { ...(cookie ? { cookie } : {}), ...headers } });
  return { status: res.statusCode, headers: res.headers as Record<string, string>, text: await res.body.text() };
}

/** A console form, sent from the console's origin unless `headers` say otherwise. */
export async function consolePost(svc: TestService, path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = { origin: svc.baseUrl, 'sec-fetch-site': 'same-origin' }) {
  const res = await request(`${svc.baseUrl}${path}`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.statusCode, headers: res.headers as Record<string, string>, text: await res.body.text() };
}

/** Opens a one-time link as its owner does: the confirmation page, then its button (a POST from the console's origin). */
export async function exchange(svc: TestService, url: string) {
  const shown = await request(url);
  const page = await shown.body.text();
  if (shown.statusCode !== 200) return { status: shown.statusCode, headers: shown.headers as Record<string, string> };
  const token = /name="token" value="([^"]*)"/.exec(page)![1]!;
  const res = await request(`${svc.baseUrl}/console/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: svc.baseUrl, 'sec-fetch-site': 'same-origin' },
    body: new URLSearchParams({ token }).toString(),
  });
  await res.body.text();
  return { status: res.statusCode, headers: res.headers as Record<string, string> };
}

/** Mints a link with `key` (default: the bootstrap live key), exchanges it, reads the form token. */
export async function openConsole(svc: TestService, key?: string, headers?: Record<string, string>): Promise<ConsoleSession> {
  const { url } = await mintLink(svc, key, headers);
  const res = await exchange(svc, url);
  expect(res.status).toBe(303);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  const page = await consoleGet(svc, '/console/keys', cookie);
  expect(page.status).toBe(200);
  const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)![1]!;
  return { cookie, csrf };
}
