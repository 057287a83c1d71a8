import { describe, expect, it } from 'vitest';
import { freshFixtureEachTest, serviceErrorOf, type DomainFixture } from '../../../test/helpers/domain-fixture.js';
import { addPortDocument, cancelPort, checkPortability, createPort, getPort, listPorts, sandboxPortDecision, submitPort } from './ports.js';
import { adoptPortedNumber } from './numbers.js';
import { CreatePortBody, PortDocumentBody, SandboxPortDecisionBody } from '../../api/schemas/ports.js';
import { PORT_TIMINGS } from '../../api/values/registration.js';
import { PRICES } from '../../api/values/prices.js';
import { losingCarrierVerdict, portedNumberProfile, registryPortability } from '../world/port-registry.js';
import { ACCOUNT_MISMATCH_REASON, NOT_PORTABLE, PORT_REASONS, REJECTED_ACCOUNT_NUMBER } from '../../api/values/registration.js';
import type { AccountRecord } from '../storage/accounts-repo.js';

// contract §7 (ports), §9, §11: the port domain on the fixture (no HTTP).

let fx: DomainFixture;
freshFixtureEachTest((f) => (fx = f));

const address = { street: '1 Market St', city: 'San Francisco', state: 'CA', zip: '94105' };
const doc = (type: 'loa' | 'bill') => PortDocumentBody.parse({ type, filename: `${type}.pdf`, contentBase64: Buffer.from(type).toString('base64') });

async function open(numbers: string[], account: AccountRecord = fx.agency, extra: Record<string, unknown> = {}) {
  const actor = fx.actor('live', account);
  const { port } = (await fx.deps.uow.write(async (tx) => await createPort(tx, actor, CreatePortBody.parse({ phoneNumbers: numbers, authorizedName: 'A B', accountNumber: 'ACC-1', pin: '4321', serviceAddress: address, ...extra }))));
  (await fx.deps.uow.write(async (tx) => await addPortDocument(tx, actor, port.id, doc('loa'))));
  (await fx.deps.uow.write(async (tx) => await addPortDocument(tx, actor, port.id, doc('bill'))));
  return port;
}

describe('the simulated registry (world/port-registry.ts)', () => {
  it('applies its documented rules in order', async () => {
    expect(registryPortability('+14157340001')).toEqual({ portable: true, reason: null });
    expect(registryPortability('+18007340001')).toEqual({ portable: true, reason: null });
    expect(registryPortability('+447700900123').reason).toBe(NOT_PORTABLE.notNanp);
    expect(registryPortability('+15005550001').reason).toBe(NOT_PORTABLE.reserved);
    expect(registryPortability('+13125550100').reason).toBe(NOT_PORTABLE.reserved);
    expect(registryPortability('+19115550000').reason).toBe(NOT_PORTABLE.unknownAreaCode);
    expect(registryPortability('+14157349900').reason).toBe(NOT_PORTABLE.noPortOut);
    const offered = await fx.buyNumber();
    expect(registryPortability(offered.phoneNumber).reason).toBe(NOT_PORTABLE.ourInventory);
  });

  it('the losing carrier rejects only the magic account number; profiles follow the prefix', () => {
    expect(losingCarrierVerdict({ accountNumber: REJECTED_ACCOUNT_NUMBER })).toEqual({ approved: false, reason: ACCOUNT_MISMATCH_REASON });
    expect(losingCarrierVerdict({ accountNumber: '0000000001' })).toEqual({ approved: true });
    expect(portedNumberProfile('+12125550000')).toEqual({ type: 'local', locality: 'New York', region: 'NY' });
    expect(portedNumberProfile('+18335550000')).toEqual({ type: 'tollfree', locality: null, region: null });
  });
});

describe('ports domain', () => {
  it('keeps only whether a PIN was given', async () => {
    const port = await open(['+14157340001']);
    expect(port.hasPin).toBe(true);
    expect(JSON.stringify(await fx.deps.uow.read(async (tx) => await tx.ports.getById(port.id)))).not.toContain('4321');
  });

  it('emits port.updated in the transaction of each move, and charges at submit', async () => {
    const port = await open(['+14157340001', '+14157340002']);
    (await fx.deps.uow.write(async (tx) => await submitPort(tx, fx.actor(), port.id)));
    const events = await fx.events(fx.agency, 'port.updated');
    expect(events.map((e) => (e.body as { status: string }).status)).toEqual(['draft', 'submitted']);
    expect((await fx.charges(fx.agency)).filter((c) => c.ref === port.id)).toEqual([
      expect.objectContaining({ category: 'port', quantity: 2, amountCents: 2 * PRICES.portPerNumber }),
    ]);
  });

  it('rejects at the FOC date, adopting nothing, when another account owns a number by then', async () => {
    const port = await open(['+14157340001', '+14157340002']);
    (await fx.deps.uow.write(async (tx) => await submitPort(tx, fx.actor(), port.id)));
    await fx.advance(PORT_TIMINGS.focScheduledAfterSecs * 1000);
    expect((await fx.deps.uow.write((tx) => getPort(tx, fx.actor(), port.id))).port.status).toBe('foc_scheduled');
    // Should the world change under the port (the service's guards make this rare), the port does not steal the number.
    await fx.deps.uow.write(async (tx) => await adoptPortedNumber(tx, fx.stranger.id, 'live', { phoneNumber: '+14157340002', type: 'local', capabilities: { sms: true, mms: true, voice: true }, locality: null, region: null }, fx.clock.nowMs()),
    );
    await fx.advance(PORT_TIMINGS.focDateAfterSecs * 1000);
    const after = (await fx.deps.uow.write((tx) => getPort(tx, fx.actor(), port.id))).port;
    expect(after.status).toBe('rejected');
    expect(after.rejectionReason).toBe(`+14157340002: ${PORT_REASONS.ownedAtCompletion}`);
    expect(await fx.deps.uow.read(async (tx) => await tx.numbers.findByPhone(fx.agency.id, '+14157340001'))).toBeUndefined();
    expect(fx.jobErrors).toEqual([]);
  });

  it('a sandbox decision makes the 24 h verdict a no-op; a canceled port never completes', async () => {
    const a = await open(['+14157340001'], fx.agency, { accountNumber: REJECTED_ACCOUNT_NUMBER });
    const b = await open(['+14157340002']);
    (await fx.deps.uow.write(async (tx) => await submitPort(tx, fx.actor(), a.id)));
    (await fx.deps.uow.write(async (tx) => await submitPort(tx, fx.actor(), b.id)));
    // The carrier would reject `a` at 24 h; the sandbox approves it first.
    (await fx.deps.uow.write(async (tx) => await sandboxPortDecision(tx, fx.actor(), a.id, SandboxPortDecisionBody.parse({ decision: 'approved' }))));
    (await fx.deps.uow.write(async (tx) => await cancelPort(tx, fx.actor(), b.id)));
    await fx.advance((PORT_TIMINGS.focScheduledAfterSecs + PORT_TIMINGS.focDateAfterSecs) * 1000);
    expect((await fx.deps.uow.write((tx) => getPort(tx, fx.actor(), a.id))).port.status).toBe('completed');
    expect((await fx.deps.uow.write((tx) => getPort(tx, fx.actor(), b.id))).port.status).toBe('canceled');
    expect((await fx.deps.uow.read(async (tx) => await tx.numbers.findByPhone(fx.agency.id, '+14157340001')))?.status).toBe('idle');
    expect(await fx.deps.uow.read(async (tx) => await tx.numbers.findByPhone(fx.agency.id, '+14157340002'))).toBeUndefined();
    expect(fx.jobErrors).toEqual([]);
  });

  it("another account's port is not_found; its numbers are held for everyone", async () => {
    const port = await open(['+14157340001'], fx.sub);
    expect((await serviceErrorOf(async () => await fx.deps.uow.write((tx) => getPort(tx, fx.actor(), port.id)))).code).toBe('not_found');
    expect((await serviceErrorOf(async () => (await fx.deps.uow.write(async (tx) => await submitPort(tx, fx.actor('live', fx.stranger), port.id))))).code).toBe('not_found');
    const page = await fx.deps.uow.write((tx) => listPorts(tx, fx.actor('live', fx.sub), {}, 10));
    expect(page.data.map((p) => p.port.id)).toEqual([port.id]);
    expect((await fx.deps.uow.write((tx) => listPorts(tx, fx.actor(), {}, 10))).data).toEqual([]);
    expect((await fx.deps.uow.read(async (tx) => checkPortability(tx, fx.actor('live', fx.stranger), ['+14157340001'])))).toEqual([
      { phoneNumber: '+14157340001', portable: false, reason: PORT_REASONS.openPort },
    ]);
  });
});
