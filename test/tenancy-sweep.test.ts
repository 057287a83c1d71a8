// Tenancy: a sweep generated from the service's own /openapi.json. A resource of each
// family is made in a victim account; every operation that takes an id in its path is then tried on
// it from another account — with that account's own key, and through `Service-Subaccount` — and must
// answer `404 not_found` (contract §3: another account's record does not exist for the caller) with
// every stored row unchanged. A new id-taking operation is swept without editing this file; one whose
// family has no fixture fails the test, naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { startTestService, type TestService } from './helpers/service.js';
import { fillPath, label, operationsOf, pathParamNames, validArb, type Operation } from './helpers/openapi-ops.js';
import { randomUUID } from 'node:crypto';
import { buildFixtures, pathValuesFor, type Fixtures } from './helpers/openapi-fixtures.js';
import { storedState } from './helpers/inspect.js';
import { GOOD_CAMPAIGN } from './registration-fixtures.js';
import { renameApiKeyInStorage } from './helpers/inspect.js';
import { deref } from './helpers/openapi-ops.js';

// Operations whose path value is not an account's resource, by design; each says why.
const NOT_ACCOUNT_SCOPED: Record<string, string> = {
  'GET /media/{name}': 'public media: served without auth to whoever holds the unguessable name (ARCHITECTURE: Public media)',
  'GET /p/{brandId}/opt-in': "a brand's hosted opt-in page is public HTML by design (contract §7)",
  'POST /p/{brandId}/opt-in': "a brand's hosted opt-in form is public by design (contract §7)",
  'GET /p/{brandId}/privacy': 'a hosted page, public by design (contract §7)',
  'GET /p/{brandId}/terms': 'a hosted page, public by design (contract §7)',
  'GET /p/{brandId}/opt-in/confirmed': 'a hosted page, public by design (contract §7)',
  'POST /sinks/{id}': "a sink's receiver is public, as every webhook receiver is: whoever has its URL may post to it (contract §10)",
  'PUT /v1/sandbox/dns/{name}': "the sandbox DNS is one table shared by every account (contract §9)",
  'GET /v1/sandbox/dns/{name}': "the sandbox DNS is one table shared by every account (contract §9)",
  'DELETE /v1/sandbox/dns/{name}': "the sandbox DNS is one table shared by every account (contract §9)",
};

// Where the spec answers something other than 404 before any lookup, so nothing about the victim's
// resource can show: what to expect instead, and why. Everything else: 404 not_found.
type Attacker = { name: string; key?: string; headers?: Record<string, string> };
function expected(op: Operation, a: Attacker): { status: number; code?: string; emptyData?: true } {
  if (op.path.startsWith('/v1/subaccounts/')) {
    // service-spec "Accounts" 5: only agency keys manage sub-accounts, and agency-level routes reject
    // `Service-Subaccount`; both refusals come before the id is read.
    return a.headers?.['service-subaccount'] ? { status: 400, code: 'validation_error' } : { status: 403, code: 'forbidden' };
  }
  // contract §4 and the operation's description: "a counterparty with no messages is an empty thread, not 404": the caller's own
  // (empty) thread with that number, never the victim's messages.
  if (label(op) === 'GET /v1/conversations/{counterparty}') return { status: 200, emptyData: true };
  return { status: 404, code: 'not_found' };
}

// Bodies that pass the schema and every rule the domain checks before its ownership lookup, so the
// only reason left to refuse is the tenancy one. Others come from the request schema (fixed seed).
const bodyFor = (op: Operation, fx: Fixtures): unknown => {
  switch (label(op)) {
    case 'POST /v1/numbers/{id}/assign':
      return { campaignId: fx.campaign };
    case 'PUT /v1/numbers/{id}/route':
      return { destinationType: 'pstn', destination: '+14155550177' };
    case 'POST /v1/calls/{id}/transfer':
      return { to: '+14155550177' };
    case 'PATCH /v1/webhooks/{id}':
      return { description: 'taken over' };
    case 'PATCH /v1/brands/{id}':
      return { website: 'https://taken-over.example' }; // contract §7: a website in its format

    case 'POST /v1/sandbox/ports/{id}/decision':
      return { decision: 'approved' };
    case 'POST /v1/ports/{id}/documents':
      return { type: 'loa', filename: 'loa.pdf', contentBase64: Buffer.from('%PDF-1.4 x').toString('base64') };
    default:
      return undefined;
  }
};

// References by id in a body or a query (`<family>Id`): the field's family, or why the field is not
// a reference to a resource of ours.
const REF_FIELDS: Record<string, keyof Fixtures | { notOurs: string }> = {
  brandId: 'brand',
  campaignId: 'campaign',
  emailId: 'email',
  deviceId: 'device',
  numberId: 'number',
  endpointId: 'webhook',
  userId: { notOurs: "the customer's own user id for a device, free text" },
  altBusinessId: { notOurs: "a brand's alternative business id (DUNS, LEI): registry data, not one of ours" },
};

// A body that passes every other rule, for each operation with a body reference; `own` is the
// attacker's own fixtures (the path of `/v1/numbers/{id}/assign` is its own number).
const REF_BODIES: Record<string, (own: Fixtures, field: string, id: string) => { path: Record<string, string>; body: Record<string, unknown> }> = {
  'POST /v1/numbers/{id}/assign': (own, f, id) => ({ path: { id: own.number }, body: { [f]: id } }),
  'POST /v1/webrtc/calls': (own, f, id) => ({ path: {}, body: { from: own.phoneNumber, to: '+14155550111', [f]: id } }),
  'POST /v1/campaigns': (_own, f, id) => ({ path: {}, body: { ...GOOD_CAMPAIGN, [f]: id } }),
  'POST /v1/events/{id}/resend': (own, f, id) => ({ path: { id: own.event }, body: { [f]: id } }),
  'POST /v1/sandbox/email-events': (_own, f, id) => ({ path: {}, body: { recipient: 'bounce-me@example.com', type: 'open', [f]: id } }),
  'POST /v1/sandbox/calls/evaluate': (_own, f, id) => ({ path: {}, body: { [f]: id } }),
  'POST /v1/sandbox/calls/evaluate-batch': (_own, f, id) => ({ path: {}, body: { [f]: id, calls: [{}] } }),
};

/** An id of the same shape that names nothing: the answer for the victim's id must be this one's. */
const absentLike = (id: string): string =>
  /^[0-9a-f-]{36}$/i.test(id) ? randomUUID() : id.replace(/(?<=_)[A-Za-z0-9]+$/, (rest) => 'Z'.repeat(rest.length));

let svc: TestService;
let doc: any;
let ops: Operation[];
const victims: Array<{ name: string; fx: Fixtures; own: Record<string, string> }> = [];
const attackers: Attacker[] = [];
let attackerFixtures: Fixtures;

beforeAll(async () => {
  svc = await startTestService();
  doc = (await svc.call('GET', '/openapi.json')).body;
  ops = operationsOf(doc).filter((op) => pathParamNames(op.path).length > 0);
  const sub = async (name: string) => {
    const r = await svc.call('POST', '/v1/subaccounts', { body: { name } });
    expect(r.status, r.text).toBe(201);
    return r.body.id as string;
  };
  const s1 = await sub('tenant B');
  const s2 = await sub('sibling C');
  const s1Key = await svc.call('POST', '/v1/keys', { body: { name: 'B own', mode: 'live' }, headers: { 'service-subaccount': s1 } });
  expect(s1Key.status, s1Key.text).toBe(201);
  const s1TestKey = await svc.call('POST', '/v1/keys', { body: { name: 'B own test', mode: 'test' }, headers: { 'service-subaccount': s1 } });
  expect(s1TestKey.status, s1TestKey.text).toBe(201);
  // The parent (the agency) and a sibling sub-account are the victims; sub-account B attacks them.
  victims.push({ name: 'parent account', fx: await buildFixtures(svc), own: {} });
  // B's own resources (a path of its own for body references) must not share the victims' values.
  attackerFixtures = await buildFixtures(svc, { headers: { 'service-subaccount': s1 } }, { caller: '+14155550143', bounced: 'bounce-b@example.com' });
  victims.push({ name: 'sibling sub-account', fx: await buildFixtures(svc, { headers: { 'service-subaccount': s2 } }), own: { 'service-subaccount': s2 } });
  attackers.push({ name: "B's own key", key: s1Key.body.key });
  attackers.push({ name: "B's own test key", key: s1TestKey.body.key });
  attackers.push({ name: 'agency key acting as B (Service-Subaccount)', headers: { 'service-subaccount': s1 } });
}, 120_000);

afterAll(async () => {
  await svc?.stop();
});

describe('tenancy sweep over every id-taking operation of /openapi.json', () => {
  it('the document lists id-taking operations and every one is swept or excluded with a reason', () => {
    expect(ops.length).toBeGreaterThan(40);
    const stale = Object.keys(NOT_ACCOUNT_SCOPED).filter((l) => !ops.some((op) => label(op) === l));
    expect(stale, 'exclusions naming operations the document no longer has').toEqual([]);
  });

  it("an account's own context reaches its fixtures (the sweep's ids are real)", async () => {
    const gets = ops.filter((op) => op.method === 'GET' && !NOT_ACCOUNT_SCOPED[label(op)]);
    expect(gets.length).toBeGreaterThan(0);
    const failures: string[] = [];
    for (const v of victims) {
      for (const op of gets) {
        const values = pathValuesFor(op.path, v.fx);
        if (typeof values === 'string') continue; // reported by the sweep below
        const res = await svc.call('GET', fillPath(op.path, values), { headers: v.own });
        // A voicemail-only call has no call recording: its 404 is the truth, not a bad fixture.
        if (label(op) === 'GET /v1/calls/{id}/recording' && res.status === 404) continue;
        if (res.status !== 200) failures.push(`${v.name}: ${label(op)} → ${res.status} ${res.text.slice(0, 200)}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('the "changes nothing" proof sees a change made behind the service (a renamed key), on either engine', async () => {
    const before = await storedState(svc);
    const key = victims[0]!.fx.key;
    const listed = (await svc.call('GET', '/v1/keys?limit=100')).body.data.find((k: { id: string }) => k.id === key);
    expect(listed, 'the fixture key is listed').toBeDefined();
    await renameApiKeyInStorage(svc, key, `${listed.name} (renamed)`);
    try {
      expect((await storedState(svc)).hash).not.toBe(before.hash);
    } finally {
      await renameApiKeyInStorage(svc, key, listed.name);
    }
    expect((await storedState(svc)).hash).toBe(before.hash);
  });

  it('from another account, every operation on a resource is 404 not_found and changes nothing', async () => {
    const missing: string[] = [];
    const failures: string[] = [];
    let tried = 0;
    for (const op of ops) {
      if (NOT_ACCOUNT_SCOPED[label(op)]) continue;
      for (const v of victims) {
        const values = pathValuesFor(op.path, v.fx);
        if (typeof values === 'string') {
          // Sub-accounts do not nest (contract §3): the sibling has no sub-account to attack.
          if (values.startsWith('this account has no resource') && v.fx.subaccount === null) continue;
          missing.push(`${label(op)}: ${values}`);
          continue;
        }
        const url = fillPath(op.path, values);
        let body = bodyFor(op, v.fx);
        if (body === undefined && op.body?.contentType === 'application/json') {
          body = fc.sample(validArb(doc, op.body.schema), { seed: 14, numRuns: 1 })[0];
        }
        for (const a of attackers) {
          const before = await storedState(svc);
          const res = await svc.call(op.method, url, {
            key: a.key,
            headers: { ...(a.headers ?? {}), ...(op.method === 'POST' ? { 'idempotency-key': `tenancy-${tried}` } : {}) },
            body,
          });
          tried++;
          const after = await storedState(svc);
          const where = `${a.name} → ${v.name}: ${op.method} ${url}`;
          const want = expected(op, a);
          const okay = want.emptyData
            ? res.status === want.status && Array.isArray(res.body?.data) && res.body.data.length === 0
            : res.status === want.status && res.body?.error?.code === want.code && Boolean(res.headers['request-id']);
          if (!okay) failures.push(`${where} → ${res.status} ${res.text.slice(0, 300)} (wanted ${JSON.stringify(want)})`);
          if (after.hash !== before.hash) {
            const changed = Object.keys(after.counts).filter((t) => after.counts[t] !== before.counts[t]);
            failures.push(`${where}: stored state changed (row counts changed in: ${changed.join(', ') || 'none; a row was updated'})`);
          }
        }
      }
    }
    expect(missing, 'id-taking operations with no fixture').toEqual([]);
    expect(tried).toBeGreaterThan(100);
    expect(failures).toEqual([]);
  }, 180_000); // hundreds of requests, each followed by a read of every table when it wrote (a shared, loaded machine: 35 s seen)

  it("a reference to another account's resource in a body or query is answered as a reference to nothing", async () => {
    const refs: Array<{ op: Operation; field: string; where: 'body' | 'query' }> = [];
    const unknown: string[] = [];
    for (const op of operationsOf(doc)) {
      const props = op.body?.contentType === 'application/json' ? Object.keys(deref(doc, op.body.schema).properties ?? {}) : [];
      const fields = [...props.map((f) => ({ f, where: 'body' as const })), ...op.params.filter((p) => p.in === 'query').map((p) => ({ f: p.name, where: 'query' as const }))];
      for (const { f, where } of fields) {
        if (!/Id$/.test(f)) continue;
        const ref = REF_FIELDS[f];
        if (ref === undefined) unknown.push(`${label(op)} ${where}.${f}`);
        else if (typeof ref === 'string') refs.push({ op, field: f, where });
      }
    }
    expect(unknown, 'id fields the sweep does not know (add them to REF_FIELDS)').toEqual([]);
    expect(refs.length).toBeGreaterThan(3);
    const failures: string[] = [];
    let n = 0;
    for (const { op, field, where } of refs) {
      const family = REF_FIELDS[field] as keyof Fixtures;
      if (where === 'body' && !REF_BODIES[label(op)]) {
        failures.push(`${label(op)}: no base body for the reference ${field} (add one to REF_BODIES)`);
        continue;
      }
      for (const v of victims) {
        const victimId = v.fx[family] as string;
        const send = async (id: string, a: Attacker) => {
          if (where === 'query') return svc.call(op.method, `${fillPath(op.path, {})}?${field}=${encodeURIComponent(id)}`, { key: a.key, headers: a.headers });
          const { path, body } = REF_BODIES[label(op)]!(attackerFixtures, field, id);
          return svc.call(op.method, fillPath(op.path, path), { key: a.key, headers: { ...(a.headers ?? {}), 'idempotency-key': `ref-${n++}` }, body });
        };
        for (const a of attackers.filter((x) => x.headers)) {
          const before = await storedState(svc);
          const res = await send(victimId, a);
          const after = await storedState(svc);
          const control = await send(absentLike(victimId), a);
          const where_ = `${a.name} → ${v.name}: ${label(op)} ${where}.${field}`;
          const shape = (r: typeof res) => (r.status < 300 ? `${r.status} ${JSON.stringify(r.body?.data ?? null)}` : `${r.status} ${r.body?.error?.code}`);
          if (shape(res) !== shape(control)) failures.push(`${where_}: ${shape(res)} for the victim's id, ${shape(control)} for an id of nothing | ${res.text.slice(0, 200)}`);
          if (res.status >= 300 && after.hash !== before.hash) failures.push(`${where_}: stored state changed`);
          if (op.method === 'POST' && res.status < 300) failures.push(`${where_}: accepted (${res.status})`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 30_000);

  it('the victims are still whole: their resources read back as before from their own context', async () => {
    for (const v of victims) {
      const n = await svc.call('GET', `/v1/numbers/${v.fx.number}`, { headers: v.own });
      expect(n.status).toBe(200);
      expect(n.body.status).not.toBe('released');
      const k = await svc.call('GET', '/v1/keys', { headers: v.own });
      expect(k.body.data.map((x: any) => x.id)).toContain(v.fx.key);
      const conv = await svc.call('GET', `/v1/conversations/${encodeURIComponent(v.fx.counterparty)}`, { headers: v.own });
      expect(conv.status).toBe(200);
      expect(conv.body.data.length).toBeGreaterThan(0);
    }
  });
});
