// Checked when saved, not only when used: else a decision webhook URL to a metadata or private
// address is stored (refused only at call time), and NUL, lone surrogates and direction overrides
// are stored in names and bodies. (`pageConfig.logoUrl`: test/hosted-pages.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { buy } from './messages-fixtures.js';
import { DIRECTION_CONTROLS_MESSAGE } from '../src/api/values/text.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

type Res = Awaited<ReturnType<TestService['call']>>;

/** A 400 validation_error whose details name exactly these paths; returns their messages. */
function refused(res: Res, ...paths: string[]): string[] {
  expect(res.status, res.text).toBe(400);
  expect(res.body.error.code).toBe('validation_error');
  const details = res.body.error.details as Array<{ path: Array<string | number>; message: string }>;
  expect(details.map((d) => d.path.join('.'))).toEqual(paths);
  return details.map((d) => d.message);
}

/** A JSON body sent as written: `\ud800` stays a lone surrogate escape, `\u0000` a NUL escape. */
const raw = (json: string) => ({ rawBody: json, headers: { 'content-type': 'application/json' } });

const keyNames = async (): Promise<string[]> => (await svc.call('GET', '/v1/keys?limit=100')).body.data.map((k: { name: string }) => k.name);

describe('the decision webhook URL is checked when the route is saved', () => {
  it('a metadata, private, link-local or plain-http URL is refused naming decisionWebhook.url; the route is unchanged', async () => {
    const n = await buy(svc);
    const route = (url: string) => ({ destinationType: 'pstn', destination: '+14155550123', decisionWebhook: { enabled: true, url } });
    const ok = await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: route('https://hooks.example.com/decide') });
    expect(ok.status, ok.text).toBe(200);
    for (const url of ['https://169.254.169.254/', 'https://10.0.0.1/', 'https://192.168.1.4/decide', 'https://[fd00:ec2::254]/', 'http://hooks.example.com/decide', 'https://metadata.google.internal/']) {
      const [message] = refused(await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: route(url) }), 'body.decisionWebhook.url');
      expect(message, url).toMatch(/metadata|private|link-local|https/);
      // Disabled too: it could be enabled later without another check of the URL.
      refused(await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: { ...route(url), decisionWebhook: { enabled: false, url } } }), 'body.decisionWebhook.url');
    }
    const after = await svc.call('GET', `/v1/numbers/${n.id}/route`);
    expect(after.body.route.decisionWebhook.url).toBe('https://hooks.example.com/decide');
    // Loopback over http stays allowed, as for endpoints (a local receiver).
    expect((await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: route('http://127.0.0.1:9/decide') })).status).toBe(200);
  });
});

describe('NUL and lone surrogates are refused in every string', () => {
  it('in a body value, at any depth, naming its path; nothing is created', async () => {
    const [nul] = refused(await svc.call('POST', '/v1/keys', raw('{"name":"a\\u0000b","mode":"live"}')), 'body.name');
    expect(nul).toBe('must not contain NUL (U+0000)');
    const [lone] = refused(await svc.call('POST', '/v1/keys', raw('{"name":"half \\ud800 a pair","mode":"live"}')), 'body.name');
    expect(lone).toMatch(/unpaired UTF-16 surrogate/);
    refused(await svc.call('POST', '/v1/keys', raw('{"name":"trail \\udc00","mode":"live"}')), 'body.name');
    expect((await keyNames()).some((k) => k.includes('\u0000') || k.startsWith('half') || k.startsWith('trail'))).toBe(false);
    // Deep inside a body, every offender named, in an array too.
    const n = await buy(svc);
    refused(
      await svc.call('PUT', `/v1/numbers/${n.id}/route`, raw('{"destinations":[{"destinationType":"pstn","destination":"+14155550123","label":"ok"},{"destinationType":"pstn","destination":"+14155550124","label":"x\\u0000"}],"voicemailGreeting":"\\udfff"}')),
      'body.destinations.1.label',
      'body.voicemailGreeting',
    );
  });

  it('in a field name, and in the query string', async () => {
    const [message] = refused(await svc.call('POST', '/v1/keys', raw('{"name":"ok","mode":"live","x\\u0000y":1}')), 'body.x\u0000y');
    expect(message).toBe('field name must not contain NUL (U+0000)');
    refused(await svc.call('GET', '/v1/messages?to=%2B1415%00'), 'query.to');
  });

  it('a surrogate pair (an emoji) is text: accepted and stored as sent', async () => {
    const res = await svc.call('POST', '/v1/keys', raw('{"name":"rocket \\ud83d\\ude80","mode":"live"}'));
    expect(res.status, res.text).toBe(201);
    expect(res.body.name).toBe('rocket 🚀');
  });
});

describe('direction overrides: refused in names and labels, kept in conversation text', () => {
  const RLO = '\u202e';
  const LRI = '\u2066';

  it('a key name, a sub-account name, a number label, an endpoint description refuse them, naming the field', async () => {
    expect(refused(await svc.call('POST', '/v1/keys', { body: { name: `invoice${RLO}fdp.exe`, mode: 'live' } }), 'body.name')).toEqual([DIRECTION_CONTROLS_MESSAGE]);
    refused(await svc.call('POST', '/v1/subaccounts', { body: { name: `${LRI}Acme` } }), 'body.name');
    const n = await buy(svc);
    refused(await svc.call('PATCH', `/v1/numbers/${n.id}`, { body: { label: `sales${RLO}` } }), 'body.label');
    refused(await svc.call('POST', '/v1/webhooks', { body: { url: 'https://hooks.example.com/x', description: `prod${RLO}` } }), 'body.description');
    expect((await keyNames()).some((k) => k.includes(RLO))).toBe(false);
    // Direction MARKS change no order: a name may hold them.
    expect((await svc.call('POST', '/v1/keys', { body: { name: 'שלום\u200f key', mode: 'live' } })).status).toBe(201);
  });

  it('a message body keeps them as sent', async () => {
    const text = `mixed ${RLO}direction${'\u202c'} text`;
    const sent = await svc.call('POST', '/v1/messages', { key: svc.bootstrap.testKey, body: { to: '+14155550100', from: '+15005550006', body: text } });
    expect(sent.status, sent.text).toBe(201);
    expect((await svc.call('GET', `/v1/messages/${sent.body.id}`, { key: svc.bootstrap.testKey })).body.body).toBe(text);
  });

  it('the OpenAPI description records the decision', async () => {
    const doc = await svc.call('GET', '/openapi.json', { key: null });
    expect(doc.body.info.description).toContain('NUL (U+0000)');
    expect(doc.body.info.description).toContain('direction overrides');
  });
});
