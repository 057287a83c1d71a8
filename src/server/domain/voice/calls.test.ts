import { describe, expect, it } from 'vitest';
import { freshFixtureEachTest, serviceErrorOf, detailPaths, type DomainFixture } from '../../../../test/helpers/domain-fixture.js';
import { placeSandboxCall, placeSoftphoneCall, transferCall } from './calls.js';
import { commitStep, progressOf, runCallSteps, startedMinutes } from './call-runner.js';
import type { CallDecisionClient, CallState, DecisionReply } from './call-engine.js';
import { SandboxCallBody } from '../../../api/schemas/calls.js';
import { PutRouteBody } from '../../../api/schemas/routes.js';
import { putRoute } from './routes.js';
import { PRICES } from '../../../api/values/prices.js';

// The call runner against the domain fixture (no HTTP): usage, and the decision's "sent once" rule
// with a counting client.

let fx: DomainFixture;
freshFixtureEachTest((f) => {
  fx = f;
});

const CALLER = '+14155550123';

/** A client that counts what it is asked, answers `reply`, and can play a service stopping mid-request. */
function countingClient(reply: DecisionReply, stopDuringRequest = false): CallDecisionClient & { asked: number; stopping: boolean; stop(): void } {
  const c = {
    asked: 0,
    stopping: false,
    stop: () => undefined,
    async decide() {
      c.asked += 1;
      if (stopDuringRequest) c.stopping = true;
      return reply;
    },
  };
  return c;
}

async function numberWithRoute(route: Record<string, unknown>) {
  const n = await fx.buyNumber();
  (await fx.deps.uow.write(async (tx) => await putRoute(tx, fx.actor(), n.id, PutRouteBody.parse(route))));
  return n;
}

describe('usage (contract §11)', () => {
  it('started minutes: an answered call has started its first minute', () => {
    expect([0, 1, 60, 61, 120, 121].map(startedMinutes)).toEqual([1, 1, 1, 2, 2, 3]);
  });

  it('charges transcription per started minute of an available transcript, live calls only; a failed one is free', async () => {
    const n = await numberWithRoute({ destinationType: 'pstn', destination: '+14155550199' });
    for (const mode of ['live', 'test'] as const) {
      const call = await fx.deps.uow.write((tx) => placeSandboxCall(tx, fx.actor(mode), SandboxCallBody.parse({ from: CALLER, to: n.phoneNumber })));
      const state = call.state as CallState;
      const vm = (id: string, status: 'available' | 'failed') => ({
        type: 'voicemail.received' as const,
        fields: { callId: call.id, voicemailId: id, from: CALLER, to: n.phoneNumber, transcript: status === 'available' ? 'hello' : null, transcriptStatus: status, durationSeconds: 61, recordingUrl: `/v1/voicemails/${id}/audio`, receivedAt: new Date(fx.clock.nowMs()).toISOString() },
      });
      await fx.deps.uow.write(async (tx) => await commitStep(tx, call, { ...progressOf(state), status: 'missed', outcome: 'voicemail', state: null }, [vm(`vm_${mode}a`, 'available'), vm(`vm_${mode}f`, 'failed')], null, []),
      );
      const charges = (await fx.charges(fx.agency)).filter((c) => c.category === 'transcription' && c.ref?.startsWith(`vm_${mode}`));
      if (mode === 'live') expect(charges).toEqual([expect.objectContaining({ quantity: 2, amountCents: 2 * PRICES.transcriptionMinute, ref: 'vm_livea' })]);
      else expect(charges).toEqual([]);
      expect(await fx.deps.uow.read(async (tx) => await tx.voicemails.get(fx.agency.id, `vm_${mode}a`))).toMatchObject({ transcript: 'hello', durationSeconds: 61, callId: call.id });
    }
  });
});

describe('the decision webhook is sent once', () => {
  const route = { destinationType: 'pstn', destination: '+14155550199', decisionWebhook: { enabled: true, url: 'https://hooks.example.com/decide', timeoutMs: 800 } };

  it('a run stopped while waiting leaves decision.awaiting; the next run fails open without asking again', async () => {
    const n = await numberWithRoute(route);
    const call = await fx.deps.uow.write((tx) => placeSandboxCall(tx, fx.actor(), SandboxCallBody.parse({ from: CALLER, to: n.phoneNumber })));
    const stopped = countingClient({ kind: 'response', status: 200, body: { action: 'reject' }, latencyMs: 5 }, true);
    await runCallSteps({ ...fx.deps, decisions: stopped }, call.id, async () => undefined);
    expect(stopped.asked).toBe(1);
    expect((await fx.deps.uow.read(async (tx) => await tx.calls.getById(call.id)))!.state).toMatchObject({ phase: { kind: 'decision.awaiting' } });

    const restarted = countingClient({ kind: 'response', status: 200, body: { action: 'reject' }, latencyMs: 5 });
    await runCallSteps({ ...fx.deps, decisions: restarted }, call.id, async () => undefined);
    expect(restarted.asked).toBe(0);
    const after = (await fx.deps.uow.read(async (tx) => await tx.calls.getById(call.id)))!;
    expect(after.status).toBe('ringing');
    expect(after.trace.filter((t) => t.step === 'decision').map((t) => t.detail)).toEqual([
      'fail-open: interrupted while waiting for the answer (not sent again); the normal route runs',
    ]);
  });

  it('a normal run asks once and reads the reply (reject → blocked, no blocklist entry counted)', async () => {
    const n = await numberWithRoute(route);
    const call = await fx.deps.uow.write((tx) => placeSandboxCall(tx, fx.actor(), SandboxCallBody.parse({ from: CALLER, to: n.phoneNumber })));
    const client = countingClient({ kind: 'response', status: 200, body: { action: 'reject' }, latencyMs: 5 });
    const steps = await runCallSteps({ ...fx.deps, decisions: client }, call.id, async () => undefined);
    expect(client.asked).toBe(1);
    expect(steps).toBeGreaterThan(0);
    expect(await fx.deps.uow.read(async (tx) => await tx.calls.getById(call.id))).toMatchObject({ status: 'blocked', state: null });
    await fx.advance(60_000);
    expect(client.asked).toBe(1);
  });
});

describe('softphone calls and transfers in the domain', () => {
  it('a released number cannot place or receive calls', async () => {
    const n = await numberWithRoute({ destinationType: 'pstn', destination: '+14155550199' });
    fx.db.prepare("UPDATE numbers SET status = 'released' WHERE id = ?").run(n.id);
    expect(detailPaths(await serviceErrorOf(async () => await fx.deps.uow.write((tx) => placeSandboxCall(tx, fx.actor(), SandboxCallBody.parse({ from: CALLER, to: n.phoneNumber })))))).toEqual([['body', 'to']]);
    expect(detailPaths(await serviceErrorOf(async () => await fx.deps.uow.write((tx) => placeSoftphoneCall(tx, fx.actor(), { deviceId: 'dev_x', from: n.phoneNumber, to: CALLER }))))).toEqual([
      ['body', 'from'],
      ['body', 'deviceId'],
    ]);
  });

  it("another account's call is not found for a transfer", async () => {
    const n = await numberWithRoute({ destinationType: 'pstn', destination: '+14155550199' });
    const call = await fx.deps.uow.write((tx) => placeSandboxCall(tx, fx.actor(), SandboxCallBody.parse({ from: CALLER, to: n.phoneNumber })));
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await transferCall(tx, fx.actor('live', fx.stranger), call.id, { to: CALLER }))))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await transferCall(tx, fx.actor(), call.id, { to: CALLER }))))).code).toBe('conflict');
  });
});
