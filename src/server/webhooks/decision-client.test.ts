import { describe, expect, it } from 'vitest';
import { freshFixtureEachTest, type DomainFixture } from '../../../test/helpers/domain-fixture.js';
import { createEndpoint } from '../domain/webhooks/endpoints.js';
import { HttpDecisionClient } from './decision-client.js';
import { staticResolver } from './resolver.js';

// contract §6 (the signing endpoint), §10 (URL safety at call time): the decision client's refusals,
// with a stub resolver and a guard that refuses every address, so nothing ever connects.

let fx: DomainFixture;
freshFixtureEachTest((f) => {
  fx = f;
});

const CALLER = '+14155550123';

describe('the decision client refuses before connecting', () => {
  const request = { numberId: 'num_1', callId: 'call_1', from: CALLER, to: '+14155550100', startedAt: new Date(0).toISOString() };
  const client = () =>
    new HttpDecisionClient({ enabledForAccount: (accountId: string) => fx.deps.uow.read((tx) => tx.webhookEndpoints.enabledForAccount(accountId)) }, {
      resolver: staticResolver({ 'hooks.example.com': '93.184.216.34', 'meta.example.com': '169.254.169.254', 'private.example.com': '192.168.1.4' }),
      // Anything that passes the safety rules would be refused here: no test connects off the machine.
      destinationGuard: () => false,
    });

  it('no enabled endpoint of the same origin (scheme, host, port) → not_sent', async () => {
    await fx.deps.uow.write((tx) => createEndpoint(tx, fx.actor(), { url: 'https://hooks.example.com:8443/events', events: ['*'] } as never));
    const reply = await client().decide(fx.agency.id, request, { url: 'https://hooks.example.com/decide', timeoutMs: 800 });
    expect(reply).toMatchObject({ kind: 'failure', reason: 'not_sent', detail: expect.stringContaining('https://hooks.example.com') });
    // Another account's endpoint of the origin does not sign this account's request.
    await fx.deps.uow.write((tx) => createEndpoint(tx, fx.actor('live', fx.stranger), { url: 'https://hooks.example.com/events', events: ['*'] } as never));
    expect((await client().decide(fx.agency.id, request, { url: 'https://hooks.example.com/decide', timeoutMs: 800 })).kind).toBe('failure');
  });

  it('metadata and private addresses, literal or resolved, and plain http to a public host → not_sent', async () => {
    for (const url of ['https://meta.example.com/x', 'https://private.example.com/x']) {
      await fx.deps.uow.write((tx) => createEndpoint(tx, fx.actor(), { url: `${new URL(url).origin}/events`, events: ['*'] } as never));
      const reply = await client().decide(fx.agency.id, request, { url, timeoutMs: 800 });
      expect(reply).toMatchObject({ kind: 'failure', reason: 'not_sent', detail: expect.stringMatching(/refused: .*(metadata|private)/) });
    }
    for (const url of ['http://169.254.169.254/latest', 'http://10.1.2.3/x', 'http://hooks.example.com/x', 'not a url']) {
      const reply = await client().decide(fx.agency.id, request, { url, timeoutMs: 800 });
      expect(reply, url).toMatchObject({ kind: 'failure', reason: 'not_sent' });
    }
  });

  it('the newest enabled endpoint of the origin is the signer', async () => {
    const older = await fx.deps.uow.write((tx) => createEndpoint(tx, fx.actor(), { url: 'https://hooks.example.com/a', events: ['*'] } as never));
    fx.clock.setTo(fx.clock.nowMs() + 1000);
    const newer = await fx.deps.uow.write((tx) => createEndpoint(tx, fx.actor(), { url: 'https://HOOKS.example.com:443/b', events: ['*'] } as never));
    expect((await client().signingEndpoint(fx.agency.id, 'https://hooks.example.com/decide'))?.id).toBe(newer.id);
    await fx.deps.uow.write(async (tx) => await tx.webhookEndpoints.update(newer.id, { enabled: false }, fx.clock.nowMs()));
    expect((await client().signingEndpoint(fx.agency.id, 'https://hooks.example.com/decide'))?.id).toBe(older.id);
  });
});

