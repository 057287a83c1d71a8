// After `svc clock advance`, times read against the service's clock (Service-Time), not ours: a key
// made a minute ago is not "in 59m". And the advance says what it ran.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { runSvc, expectOk } from './helpers/cli.js';

let svc: TestService;
beforeAll(async () => {
  svc = await startTestService();
});
afterAll(async () => {
  await svc?.stop();
});

describe('the service clock', () => {
  it('every response carries Service-Time, the service clock', async () => {
    const before = (await svc.call('GET', '/v1/sandbox/clock')).body.now;
    expect((await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 7200 } })).status).toBe(200);
    const res = await svc.call('GET', '/v1/keys');
    expect(Date.parse(res.headers['service-time'] as string) - Date.parse(before)).toBe(7200 * 1000);
  });

  it('relative times on a terminal are measured against it', async () => {
    // The service is two hours ahead (above, plus another hour now).
    expectOk(await runSvc(['clock', 'advance', '1h'], { service: svc }));
    const created = await svc.call('POST', '/v1/keys', { body: { name: 'fresh', mode: 'test' } });
    expect(created.status).toBe(201);
    const listed = expectOk(await runSvc(['keys', 'list'], { service: svc, tty: true }));
    const row = listed.stdout.split('\n').find((l) => l.includes(created.body.id));
    expect(row, listed.stdout).toBeDefined();
    // "just now" (a narrow test terminal may cut it to "just …"), never "in 2h".
    expect(row).toMatch(/\bjust\b/);
    expect(listed.stdout).not.toMatch(/\bin \d+[smhd]\b/);
  });

  it('clock advance says on a terminal what ran, and that nothing did', async () => {
    // A toll-free verification falls due 72 h after it is submitted (contract §5).
    const found = await svc.call('POST', '/v1/numbers/search', { body: { type: 'tollfree', limit: 1 } });
    const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber } });
    expect(bought.status).toBe(201);
    const submission = { businessName: 'Acme', website: 'https://acme.example', useCase: 'Reminders', useCaseSummary: 'Appointment reminders', sampleMessage: 'Acme: see you at 3pm. Reply STOP to opt out.', optInWorkflow: 'Form', monthlyVolume: 100 };
    expect((await svc.call('POST', `/v1/numbers/${bought.body.id}/verify-tollfree`, { body: submission })).status).toBe(200);
    const ran = expectOk(await runSvc(['clock', 'advance', '3d'], { service: svc, tty: true }));
    expect(ran.stdout).toMatch(/^advanced 3d: the service clock is now \d{4}-\d\d-\d\dT/m);
    expect(ran.stdout).toContain('1 toll-free verification decisions');
    const idle = expectOk(await runSvc(['clock', 'advance', '1s'], { service: svc, tty: true }));
    expect(idle.stdout).toContain('nothing fell due');
    // Piped: the resource, with what ran.
    const json = JSON.parse(expectOk(await runSvc(['clock', 'advance', '1s'], { service: svc })).stdout);
    expect(json).toMatchObject({ mode: 'manual', ran: [] });
  });

  it('svc clock alone shows the clock, as clock show does; a word that is no verb is an unknown command', async () => {
    const shown = JSON.parse(expectOk(await runSvc(['clock', '-o', 'json'], { service: svc })).stdout);
    expect(shown).toMatchObject({ now: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), mode: expect.any(String) });
    expect(Object.keys(shown).sort()).toEqual(Object.keys(JSON.parse(expectOk(await runSvc(['clock', 'show', '-o', 'json'], { service: svc })).stdout)).sort());
    const typo = await runSvc(['clock', 'shw'], { service: svc });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain("unknown command 'shw'");
    expect(typo.stderr).toContain('Did you mean show?');
    // The group's help is still its help.
    expect(expectOk(await runSvc(['clock', '--help'], { service: svc })).stdout).toMatch(/advance <duration>/);
  });
});
