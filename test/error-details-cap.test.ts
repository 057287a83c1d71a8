// Error amplification. Uncapped, a body with 10,000 unknown fields answers 689 KB with
// 10,001 details, 30,000 bad addresses 2.56 MB. An error lists at most MAX_ERROR_DETAILS details,
// then one last detail counting the rest.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { MAX_ERROR_DETAILS } from '../src/api/schemas/errors.js';
import { detailLines } from '../src/cli/error-details.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

type Detail = { path: Array<string | number>; message: string; omitted?: number };

/** The answer is a capped validation_error: the first details as they were, then the count of the rest. */
function expectCapped(res: Awaited<ReturnType<TestService['call']>>, problems: number): Detail[] {
  expect(res.status, res.text.slice(0, 300)).toBe(400);
  expect(res.body.error.code).toBe('validation_error');
  const details = res.body.error.details as Detail[];
  expect(details).toHaveLength(MAX_ERROR_DETAILS + 1);
  const last = details[MAX_ERROR_DETAILS]!;
  expect(last).toEqual({ path: [], message: `and ${problems - MAX_ERROR_DETAILS} more problems not listed (at most ${MAX_ERROR_DETAILS} are)`, omitted: problems - MAX_ERROR_DETAILS });
  // The answer stays small: about a hundred lines of text, whatever the body held.
  expect(Buffer.byteLength(res.text)).toBeLessThan(20_000);
  return details.slice(0, MAX_ERROR_DETAILS);
}

describe('error details are capped', () => {
  it('10,000 unknown fields: the first 100 named, then "and 9,900 more"; nothing created', async () => {
    const body: Record<string, unknown> = { name: 'amplified', mode: 'live' };
    for (let i = 0; i < 10_000; i++) body[`unknown${i}`] = i;
    const res = await svc.call('POST', '/v1/keys', { body });
    const listed = expectCapped(res, 10_000);
    expect(listed.map((d) => d.path)).toEqual(Array.from({ length: MAX_ERROR_DETAILS }, (_, i) => ['body', `unknown${i}`]));
    expect(listed.every((d) => d.message === 'is not a field of this request')).toBe(true);
    const keys = await svc.call('GET', '/v1/keys?limit=100');
    expect(keys.body.data.map((k: { name: string }) => k.name)).not.toContain('amplified');
  });

  it('30,000 bad email addresses (a domain rule that lists every failure): capped the same way', async () => {
    const to = Array.from({ length: 30_000 }, (_, i) => `not-an-address-${i}`);
    const res = await svc.call('POST', '/v1/emails', { body: { from: 'hello@example.com', to, subject: 's', text: 't' } });
    const listed = expectCapped(res, 30_000 + 1); // every address, and the total over the recipient limit
    expect(listed[0]!.path).toEqual(['body', 'to', 0]);
  });

  it('at the cap nothing is cut and no count is added', async () => {
    const body: Record<string, unknown> = { name: 'at-cap', mode: 'live' };
    for (let i = 0; i < MAX_ERROR_DETAILS; i++) body[`unknown${i}`] = i;
    const res = await svc.call('POST', '/v1/keys', { body });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toHaveLength(MAX_ERROR_DETAILS);
    expect(res.body.error.details.some((d: Detail) => d.omitted !== undefined)).toBe(false);
  });

  it('the CLI prints the count as a sentence of its own, not as an empty path', () => {
    const lines = detailLines('the request failed validation', [
      { path: ['body', 'unknown0'], message: 'is not a field of this request' },
      { path: [], message: 'and 9900 more problems not listed (at most 100 are)', omitted: 9900 },
    ]);
    expect(lines).toEqual(['body.unknown0: is not a field of this request', 'and 9900 more problems not listed (at most 100 are)']);
  });

  it('the OpenAPI document says so', async () => {
    const doc = await svc.call('GET', '/openapi.json', { key: null });
    const details = doc.body.components.schemas.ErrorEnvelope.properties.error.properties.details;
    expect(details.description).toContain(`at most ${MAX_ERROR_DETAILS}`);
    expect(details.description).toContain('omitted');
  });
});
