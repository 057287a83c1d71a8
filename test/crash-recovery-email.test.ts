// The crash proof (crash-recovery.test.ts) with live emails in flight. The BUILT service
// as a real child process on 127.0.0.1 (system clock: the mail server hands over and delivers while
// the burst runs), a verified sending domain, a burst of live `POST /v1/emails` to 2-3 recipients
// each (each with its own Idempotency-Key, many in flight), SIGKILL mid-burst, a restart on the same
// data dir, retries of every request, a clock advance, then: every 201 is stored once; every
// recipient of every stored email is delivered exactly once to the mail sandbox; every email is
// charged exactly once (the ledger row per email, the usage, the wallet); no key creates twice.
// What it proves: contract §2 (idempotency), §8 (an email is charged when accepted; the mail
// server's steps are durable jobs, each ONE transaction with its mail sandbox row, so a restart
// resumes them and a step cut off mid-way is run whole or not at all), §11 (one charge per email).
// Bounded (a deadline per phase and for the whole); every socket is on loopback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { assertBuilt } from './helpers/cli.js';
import { all, client, fixtureService, killAll, pool, startChild, until, type Call, type Child, type Client } from './helpers/service-child.js';
import { verifiedDomain } from './helpers/email-fixtures.js';
import { emailChargesInFile } from './helpers/inspect.js';
import { PAGE_LIMIT_MAX } from '../src/api/schemas/page.js';
import { MAILBOX_LIMIT_MAX } from '../src/api/values/email.js';
import { emailChargeCents } from '../src/api/values/prices.js';

/** Emails in the burst, how many are in flight at once, and how many 201s before the kill. */
const BURST = 150;
const IN_FLIGHT = 16;
const KILL_AFTER_ACKS = 50;
/** Bounds against a hang, not timings: the drain after the restart, and the whole test (~10 s alone here). */
const DRAIN_TIMEOUT_MS = 20_000;
const TEST_TIMEOUT_MS = 40_000;
/** Every usage line since long before the test (the default range is the current month). */
const ALL_USAGE = '/v1/usage?from=2000-01-01T00:00:00Z';

const DOMAIN = 'crash-mail.acme-test.example';
/** Email i's recipients: 2 or 3 (to, cc, and a bcc every other email); a function of i, so a retry sends the same body. */
const recipientsOf = (i: number): string[] => [`to-${i}@inbox.example`, `cc-${i}@inbox.example`, ...(i % 2 === 1 ? [`bcc-${i}@inbox.example`] : [])];
const emailBody = (i: number) => {
  const [to, cc, bcc] = recipientsOf(i);
  return { from: `Crash <news@${DOMAIN}>`, to: [to], cc: [cc], ...(bcc ? { bcc: [bcc] } : {}), subject: `Crash proof ${i}`, text: `email ${i}` };
};
const keyOf = (i: number) => `crash-email-${i}`;

/** Every message of the account's mail sandbox, oldest first (the feed's `after` cursor, no wait). */
async function mailbox(call: Client): Promise<any[]> {
  const out: any[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await call('GET', `/v1/sandbox/mailbox?limit=${MAILBOX_LIMIT_MAX}${after ? `&after=${encodeURIComponent(after)}` : ''}`);
    expect(page.status, JSON.stringify(page.body)).toBe(200);
    if (page.body.data.length === 0) return out;
    out.push(...page.body.data);
    after = page.body.cursor;
  }
}

describe('crash: SIGKILL mid-burst of live emails, restart on the same data', () => {
  let dataDir: string;
  const children: Child[] = [];
  const agents: Agent[] = [];

  beforeAll(() => {
    assertBuilt();
    dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-email-'));
  });

  afterAll(async () => {
    killAll(children);
    await Promise.all(agents.map((a) => a.destroy()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no answered email, delivers each recipient once, charges each email once, creates nothing twice', async () => {
    // --- before the crash: a verified domain, the wallet's balance ------------------------------
    const first = await startChild(dataDir);
    children.push(first);
    const agent1 = new Agent({ connections: IN_FLIGHT });
    agents.push(agent1);
    const live1 = client(first.baseUrl, first.liveKey, agent1);
    await verifiedDomain(fixtureService(first, agent1), DOMAIN);
    const balanceBefore = (await live1('GET', '/v1/billing')).body.wallet.balanceCents as number;
    expect((await live1('GET', ALL_USAGE)).body.data.find((l: any) => l.category === 'email')).toBeUndefined();

    // --- the burst, killed once KILL_AFTER_ACKS emails have been answered 201 -------------------
    // The workers keep sending until the first request fails (the child is gone): at the kill every
    // worker has a request in flight, whatever the group commit's batches looked like, so answers are
    // always cut off; what was not sent by then never reaches the first run.
    const acked = new Map<number, string>(); // index → email id of its 201
    const unanswered = new Set<number>(); // sent, no answer (the kill cut it off), or never sent
    let next = 0;
    let killed = false;
    let gone = false;
    let cutOff = 0;
    const worker = async () => {
      while (next < BURST) {
        const i = next++;
        if (gone) {
          unanswered.add(i);
          continue;
        }
        let res: Call;
        try {
          res = await live1('POST', '/v1/emails', emailBody(i), { 'idempotency-key': keyOf(i) });
        } catch (err) {
          if (!killed) throw err;
          gone = true;
          unanswered.add(i);
          cutOff++;
          continue;
        }
        // Any answer that arrives is a 201: a 5xx here would be a defect of its own.
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        acked.set(i, res.body.id);
        if (acked.size >= KILL_AFTER_ACKS && !killed) {
          killed = true;
          first.proc.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
    expect((await first.exited).signal).toBe('SIGKILL');
    expect(acked.size).toBeGreaterThanOrEqual(KILL_AFTER_ACKS);
    expect(cutOff, 'the kill cut answers off').toBeGreaterThan(0);
    expect(unanswered.size).toBeGreaterThan(cutOff);
    expect(acked.size + unanswered.size).toBe(BURST);
    await agent1.destroy();

    // --- restart on the same data dir --------------------------------------------------------------
    const second = await startChild(dataDir);
    children.push(second);
    const agent2 = new Agent({ connections: IN_FLIGHT });
    agents.push(agent2);
    const live2 = client(second.baseUrl, second.liveKey, agent2);
    // Whatever the mail server had delivered when the kill came (a count for the report, not asserted: timing).
    const deliveredBeforeRestart = (await mailbox(live2)).length;

    // Every 201 is stored, with its recipients.
    await pool([...acked.entries()], IN_FLIGHT, async ([i, id]) => {
      const got = await live2('GET', `/v1/emails/${id}`);
      expect(got.status, `email ${id} of send ${i}`).toBe(200);
      expect(got.body.subject).toBe(`Crash proof ${i}`);
      expect(got.body.recipients.map((r: any) => r.address).sort()).toEqual(recipientsOf(i).sort());
    });
    // The acknowledged keys replay: the same id, nothing new.
    await pool([...acked.entries()], IN_FLIGHT, async ([i, id]) => {
      const again = await live2('POST', '/v1/emails', emailBody(i), { 'idempotency-key': keyOf(i) });
      expect(again.status, JSON.stringify(again.body)).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.body.id).toBe(id);
    });
    // The unacknowledged keys create exactly once: the first retry is a fresh create or a replay (the
    // kill cut off only the answer), a second one replays that same id.
    const retried = new Map<number, string>();
    let committedUnanswered = 0;
    await pool([...unanswered], IN_FLIGHT, async (i) => {
      const once = await live2('POST', '/v1/emails', emailBody(i), { 'idempotency-key': keyOf(i) });
      expect(once.status, JSON.stringify(once.body)).toBe(201);
      if (once.headers['idempotent-replayed'] === 'true') committedUnanswered++;
      const twice = await live2('POST', '/v1/emails', emailBody(i), { 'idempotency-key': keyOf(i) });
      expect(twice.status).toBe(201);
      expect(twice.headers['idempotent-replayed']).toBe('true');
      expect(twice.body.id).toBe(once.body.id);
      retried.set(i, once.body.id);
    });
    const idOf = new Map([...acked, ...retried]);
    expect(new Set(idOf.values()).size).toBe(BURST);

    // --- the clock runs: every email's steps are due, and run --------------------------------------
    const advanced = await live2('POST', '/v1/sandbox/clock/advance', { seconds: 60 });
    expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);
    let stored: any[] = [];
    await until(
      `all ${BURST} emails delivered`,
      async () => {
        stored = await all(live2, '/v1/emails', PAGE_LIMIT_MAX, 'cursor');
        return stored.length >= BURST && stored.every((e) => e.status === 'delivered');
      },
      DRAIN_TIMEOUT_MS,
    );
    // Stored once: one email per key, and they are the answered ids.
    expect(stored.length).toBe(BURST);
    expect(new Set(stored.map((e) => e.id))).toEqual(new Set(idOf.values()));

    // Every recipient of every email is in the mail sandbox exactly once, and nothing else is.
    const expected = new Map<string, number>();
    for (const [i, id] of idOf) for (const to of recipientsOf(i)) expected.set(`${id} ${to}`, 0);
    const messages = await mailbox(live2);
    for (const m of messages) {
      const k = `${m.emailId} ${m.to}`;
      expect(expected.has(k), `mail sandbox message ${k} belongs to an answered email`).toBe(true);
      expected.set(k, expected.get(k)! + 1);
    }
    const twiceDelivered = [...expected].filter(([, n]) => n > 1).map(([k]) => k);
    const missing = [...expected].filter(([, n]) => n === 0).map(([k]) => k);
    expect(twiceDelivered, 'recipients delivered twice').toEqual([]);
    expect(missing, 'recipients never delivered').toEqual([]);
    expect(messages.length).toBe(expected.size);

    // Each email charged exactly once: one ledger row per email id (the ledger has no API: read it
    // from the data dir, read-only, beside the running service) ...
    const charges = emailChargesInFile(dataDir);
    expect(new Set(charges.map((c) => c.ref))).toEqual(new Set(idOf.values()));
    for (const c of charges) expect(c.n, `charges of ${c.ref}`).toBe(1);
    // ... and through the API: the usage counts every recipient once, the wallet paid each email once.
    const recipients = [...idOf.keys()].reduce((sum, i) => sum + recipientsOf(i).length, 0);
    const cents = [...idOf.keys()].reduce((sum, i) => sum + emailChargeCents(recipientsOf(i).length), 0);
    const usage = (await live2('GET', ALL_USAGE)).body.data.find((l: any) => l.category === 'email');
    expect(usage).toMatchObject({ quantity: recipients, amountCents: cents });
    expect((await live2('GET', '/v1/billing')).body.wallet.balanceCents).toBe(balanceBefore - cents);
    console.log(
      `crash with emails: ${acked.size} answered, ${cutOff} answers cut off (${committedUnanswered} of them committed), ${unanswered.size - cutOff} never sent; ` +
        `${deliveredBeforeRestart} of ${expected.size} recipients in the mail sandbox at the restart`,
    );
  }, TEST_TIMEOUT_MS);
});
