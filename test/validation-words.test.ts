// Validation messages in the service's words, naming the expected form (never
// zod's defaults), and an empty id segment (`GET /v1/messages/`) is a 404, not a 400 on params.id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestService, type TestService } from './helpers/service.js';
import { FIELD_WORDS, fieldMessage, issuesToDetails } from '../src/server/http/validation.js';
import { MESSAGE_BODY_MAX } from '../src/api/schemas/messages.js';
import { PAGE_LIMIT_MAX } from '../src/api/schemas/page.js';

type Res = Awaited<ReturnType<TestService['call']>>;

/** zod's own phrasing: none of it may reach a client. */
const ZOD_WORDS = /Invalid input|Invalid option|Invalid string|Too big|Too small|Unrecognized key|expected .*, received|received undefined/;

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

function details(res: Res): Array<{ path: Array<string | number>; message: string }> {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error.code).toBe('validation_error');
  const d = res.body.error.details as Array<{ path: Array<string | number>; message: string }>;
  expect(d.length).toBeGreaterThan(0);
  return d;
}
const byPath = (d: Array<{ path: Array<string | number>; message: string }>) => Object.fromEntries(d.map((x) => [x.path.join('.'), x.message]));

describe('validation messages in the service words', () => {
  it('names the expected form for a wrong type, a length, an unknown and a missing field', async () => {
    const res = await svc.call('POST', '/v1/messages', { body: { to: 14155550100, from: '+15005550006', body: 'x'.repeat(MESSAGE_BODY_MAX + 1), colour: 'red' } });
    expect(byPath(details(res))).toEqual({
      'body.to': 'must be a string',
      'body.body': `must be at most ${MESSAGE_BODY_MAX} characters`,
      'body.colour': 'is not a field of this request',
    });
    const missing = byPath(details(await svc.call('POST', '/v1/messages', { body: { from: '+15005550006', body: 'hi' } })));
    expect(missing['body.to']).toBe('is required');
  });

  it('keeps the messages schemas set themselves', async () => {
    const d = byPath(details(await svc.call('POST', '/v1/messages', { body: { to: '4155550100', from: '+15005550006', body: 'hi' } })));
    expect(d['body.to']).toMatch(/^must be an E\.164 phone number like \+1/);
    // A rule across fields (superRefine) with its own words.
    const none = byPath(details(await svc.call('POST', '/v1/messages', { body: { to: '+14155550100', from: '+15005550006' } })));
    expect(none['body.body']).toBe('required unless mediaUrls is given');
  });

  it('says which values an enum takes, and the bounds of a number', async () => {
    expect(byPath(details(await svc.call('POST', '/v1/keys', { body: { name: 'x', mode: 'staging' } })))['body.mode']).toBe('must be one of: live, test');
    expect(byPath(details(await svc.call('GET', '/v1/messages?limit=0')))['query.limit']).toBe('must be at least 1');
    expect(byPath(details(await svc.call('GET', `/v1/messages?limit=${PAGE_LIMIT_MAX + 1}`)))['query.limit']).toBe(`must be at most ${PAGE_LIMIT_MAX}`);
    expect(byPath(details(await svc.call('GET', '/v1/messages?limit=2.5')))['query.limit']).toBe('must be an integer');
    expect(byPath(details(await svc.call('GET', '/v1/messages?limit=ten')))['query.limit']).toBe('must be a number');
    expect(byPath(details(await svc.call('POST', '/v1/keys', { body: { name: '' } })))['body.name']).toBe('must not be empty');
    expect(byPath(details(await svc.call('POST', '/v1/keys', { body: { name: null } })))['body.name']).toBe('must be a string, not null');
  });

  it('never answers in zod words, for any operation with a JSON body (generated from /openapi.json)', async () => {
    const doc = (await svc.call('GET', '/openapi.json', { key: null })).body as { paths: Record<string, Record<string, { requestBody?: { content?: Record<string, unknown> } }>> };
    const ops: Array<[string, string]> = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(item)) {
        if (op.requestBody?.content?.['application/json'] && path.startsWith('/v1/')) ops.push([method.toUpperCase(), path]);
      }
    }
    expect(ops.length).toBeGreaterThan(20);
    let checked = 0;
    for (const [method, path] of ops) {
      const url = path.replace(/\{[^}]+\}/g, 'x_missing');
      for (const body of [[1], { zzUnknown: 1, name: 7, to: false, url: 3, events: 'x' }]) {
        const res = await svc.call(method, url, { body });
        expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(500);
        if (res.status !== 400) continue;
        for (const d of res.body.error.details ?? []) {
          checked++;
          expect(d.message, `${method} ${path} ${JSON.stringify(d.path)}`).not.toMatch(ZOD_WORDS);
        }
        expect(res.body.error.message).not.toMatch(ZOD_WORDS);
      }
    }
    expect(checked).toBeGreaterThan(ops.length);
  });

  it('maps every zod issue code to a sentence naming the form (the mapping, directly)', () => {
    const say = (schema: z.ZodType, value: unknown) => {
      const r = schema.safeParse(value, { error: fieldMessage });
      expect(r.success).toBe(false);
      return issuesToDetails('body', r.error!.issues).map((d) => d.message);
    };
    expect(say(z.email(), 'nope')).toEqual(['must be an email address like name@example.com']);
    expect(say(z.url(), 'nope')).toEqual(['must be a URL like https://example.com/path']);
    expect(say(z.iso.datetime(), 'yesterday')).toEqual(['must be an ISO 8601 date-time like 2026-01-31T09:30:00Z']);
    expect(say(z.e164(), '555')).toEqual(['must be an E.164 number like +14155550100']);
    expect(say(z.string().startsWith('ac_'), 'x')).toEqual(['must start with ac_']);
    expect(say(z.number().multipleOf(5), 7)).toEqual(['must be a multiple of 5']);
    expect(say(z.number().lt(10), 10)).toEqual(['must be less than 10']);
    expect(say(z.number().gt(0), 0)).toEqual(['must be greater than 0']);
    expect(say(z.string().length(3), 'abcd')).toEqual(['must be exactly 3 characters']);
    expect(say(z.array(z.string()).min(1), [])).toEqual(['must be at least 1 item']);
    expect(say(z.array(z.string()).max(2), ['a', 'b', 'c'])).toEqual(['must be at most 2 items']);
    expect(say(z.boolean(), 'yes')).toEqual(['must be true or false']);
    expect(say(z.object({ a: z.string() }), [])).toEqual(['must be an object']);
    expect(say(z.union([z.string(), z.null()]), 3)).toEqual(['must be a string or null']);
    expect(say(z.literal('on'), 'off')).toEqual(['must be on']);
    expect(say(z.enum(['a', 'b c', '']), 'z')).toEqual(['must be one of: a, "b c", ""']);
    expect(say(z.string().regex(/^x+$/), 'y')).toEqual(['is not in the expected form']);
    expect(say(z.string().refine(() => false), 'y')).toEqual([FIELD_WORDS.invalid]);
    expect(say(z.strictObject({}), { a: 1, b: 2 })).toEqual([FIELD_WORDS.unknownField, FIELD_WORDS.unknownField]);
    expect(say(z.strictObject({ a: z.string() }), {})).toEqual([FIELD_WORDS.required]);
    // A schema's own words win over the mapping.
    expect(say(z.string().max(2, 'two letters at most'), 'abc')).toEqual(['two letters at most']);
  });
});

describe('an empty path segment is a 404', () => {
  it('answers GET /v1/messages/ with not_found, not a validation error on params.id', async () => {
    const res = await svc.call('GET', '/v1/messages/');
    expect(res.status, res.text).toBe(404);
    expect(res.body.error.code).toBe('not_found');
    expect(res.body.error.message).toBe('no route GET /v1/messages/');
    expect(res.headers['request-id']).toMatch(/^req_/);
  });

  it('does so for every operation with a path parameter, and for doubled slashes', async () => {
    const doc = (await svc.call('GET', '/openapi.json', { key: null })).body as { paths: Record<string, Record<string, unknown>> };
    const tried: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      if (!path.startsWith('/v1/') || !path.includes('{')) continue;
      for (const method of Object.keys(item)) {
        const url = path.replace(/\{[^}]+\}/g, '');
        const res = await svc.call(method.toUpperCase(), url, method === 'get' || method === 'delete' ? {} : { body: {} });
        expect(res.status, `${method} ${url}: ${res.text}`).toBe(404);
        expect(res.body.error.code).toBe('not_found');
        tried.push(`${method} ${url}`);
      }
    }
    expect(tried.length).toBeGreaterThan(30);
    for (const url of ['/v1//messages', '//v1/messages', '/v1/messages//', '/v1/keys//x']) {
      const res = await svc.call('GET', url);
      expect(res.status, `${url}: ${res.text}`).toBe(404);
      expect(res.body.error.code).toBe('not_found');
    }
  });
});
