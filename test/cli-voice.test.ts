// The voice commands end to end, in-process against the real local service on loopback (manual
// clock): softphone devices, the blocklist, sandbox calls followed live (`calls simulate`, `svc
// trigger call…`), traces, recordings, voicemails and transfers. Devices, routes and blocklist
// entries are made through the CLI or the API, never straight in storage.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { BIN_PATH, expectOk, runSvc, type RunSvcOptions } from './helpers/cli.js';
import { buy } from './messages-fixtures.js';
import { runCli } from '../src/cli/main.js';
import { createTestIO } from '../src/output/io.js';
import { createLookup } from '../src/cli/completion/lookup.js';
import { LOOKUP_LISTS } from '../src/cli/completion/sources.js';

let svc: TestService;
let tmp: string;
type RunOpts = Omit<RunSvcOptions, 'service'>;
const svcRun = (args: string[], opts: RunOpts = {}) => runSvc(args, { service: svc, ...opts });
const json = async (args: string[]): Promise<any> => JSON.parse(expectOk(await svcRun([...args, '-o', 'json'])).stdout);
const lines = (text: string) => text.split('\n').filter((l) => l !== '');

const CALLER = '+14155550123';
const PSTN = '+14155550199';

beforeAll(async () => {
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-cli-voice-'));
});

afterAll(async () => {
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A voice number with this route (PUT through the API). */
async function voiceNumber(route: Record<string, unknown>): Promise<{ id: string; phoneNumber: string }> {
  const n = await buy(svc, { want: (c) => c.voice });
  const res = await svc.call('PUT', `/v1/numbers/${n.id}/route`, { body: route });
  expect(res.status, res.text).toBe(200);
  return n;
}

async function apiTrace(id: string): Promise<Array<{ at: string; step: string; detail: string }>> {
  const res = await svc.call('GET', `/v1/calls/${id}/trace`);
  expect(res.status).toBe(200);
  return res.body.data;
}

const isWav = (bytes: Buffer) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WAVE';

/** The `svc` a person runs at a terminal in `cwd` (stdout a TTY). */
async function atTerminal(args: string[], cwd: string): Promise<{ code: number; stderr: string }> {
  const io = createTestIO({ stdoutTTY: true, stderrTTY: true, stdinTTY: false });
  const env = { SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, SVC_CONFIG_DIR: join(tmp, 'cfg'), HOME: tmp };
  const code = await runCli(args, { io, env, homedir: tmp, binPath: BIN_PATH, cwd });
  return { code, stderr: io.err() };
}

describe('softphone devices and calls', () => {
  it('register (same user and label: the same device), list, presence, token, remove', async () => {
    const dev = await json(['softphone', 'devices', 'register', '--user', 'alice', '--label', 'Desk']);
    expect(dev).toMatchObject({ id: expect.stringMatching(/^dev_/), userId: 'alice', label: 'Desk' });
    expect((await json(['softphone', 'devices', 'register', '--user', 'alice', '--label', 'Desk'])).id).toBe(dev.id);

    const online = await json(['softphone', 'devices', 'presence', dev.id, 'online']);
    expect(online).toMatchObject({ id: dev.id, presence: 'online', lastSeenAt: expect.any(String) });
    const listed = await json(['softphone', 'devices', 'list']);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.find((d: any) => d.id === dev.id)).toMatchObject({ presence: 'online' });
    expect(lines(expectOk(await svcRun(['softphone', 'devices', 'list', '-o', 'ids'])).stdout)).toContain(dev.id);

    // Piped: the bare token, for TOKEN=$(…); -o json: the token and its expiry.
    const bare = expectOk(await svcRun(['softphone', 'devices', 'token', dev.id])).stdout.trim();
    expect(bare.length).toBeGreaterThan(10);
    expect(bare).not.toContain(' ');
    const minted = await json(['softphone', 'devices', 'token', dev.id]);
    expect(Date.parse(minted.expiresAt) - Date.now()).toBeGreaterThan(9 * 60_000);

    const other = await json(['softphone', 'devices', 'register', '--user', 'bob', '--label', 'Laptop']);
    const refused = await svcRun(['softphone', 'devices', 'remove', other.id]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--yes');
    expectOk(await svcRun(['softphone', 'devices', 'remove', other.id, '--yes']));
    expect((await json(['softphone', 'devices', 'list', '--all'])).map((d: any) => d.id)).not.toContain(other.id);
    expect((await svcRun(['softphone', 'devices', 'token', other.id])).code).toBe(4);
  });

  it('softphone call places an outbound call from a number given as id or E.164', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    const dev = await json(['softphone', 'devices', 'register', '--user', 'carol', '--label', 'Phone']);
    const call = await json(['softphone', 'call', '--device', dev.id, '--from', n.id, '--to', PSTN]);
    expect(call).toMatchObject({ id: expect.stringMatching(/^call_/), direction: 'outbound', from: n.phoneNumber, to: PSTN, numberId: n.id });
    const outbound = await json(['calls', 'list', '--direction', 'outbound']);
    expect(outbound.length).toBeGreaterThan(0);
    expect(outbound.every((c: any) => c.direction === 'outbound')).toBe(true);
    expect(outbound.map((c: any) => c.id)).toContain(call.id);
  });
});

describe('calls simulate on a manual clock', () => {
  it('--fast-forward prints the trace live in order, then the events; calls get --trace prints the same steps', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN, recordCalls: true });
    const r = expectOk(await svcRun(['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER, '--answer', 'first', '--after', '3s', '--duration', '10s', '--fast-forward']));
    const out = lines(r.stdout);
    const eventsAt = out.indexOf('events:');
    expect(eventsAt).toBeGreaterThan(0);
    const traceLines = out.slice(0, eventsAt);
    const eventLines = out.slice(eventsAt + 1);

    const calls = await json(['calls', 'list', '--limit', '1']);
    const call = calls[0];
    expect(call).toMatchObject({ to: n.phoneNumber, from: CALLER, status: 'completed', durationSeconds: 10, recordingId: expect.any(String) });
    const trace = await apiTrace(call.id);
    expect(trace.length).toBeGreaterThan(0);
    // Every step, in the service's order, one line each: time, +seconds, step, detail.
    expect(traceLines.length).toBe(trace.length);
    traceLines.forEach((line, i) => {
      expect(line).toContain(trace[i]!.at.slice(11, 19));
      expect(line).toContain(` ${trace[i]!.step} `);
      expect(line.endsWith(trace[i]!.detail)).toBe(true);
    });
    const steps = trace.map((t) => t.step);
    expect(steps.indexOf('leg.dialed')).toBeLessThan(steps.indexOf('answered'));
    expect(steps.indexOf('answered')).toBeLessThan(steps.lastIndexOf('ended'));
    expect(traceLines.find((l) => l.includes(' answered '))).toContain('+3s');

    // The transcript comes after the end: fast-forward moved the clock to it.
    expect(steps.lastIndexOf('transcript')).toBeGreaterThan(steps.lastIndexOf('ended'));
    expect(eventLines.map((l) => l.trim().split(/\s+/)[1])).toEqual(['call.completed', 'call.transcript']);
    const feed = await svc.call('GET', '/v1/events?types=call.*,voicemail.received&limit=100');
    const mine = feed.body.data.filter((e: any) => e.callId === call.id);
    expect(eventLines.map((l) => l.trim().split(/\s+/)[1])).toEqual(mine.map((e: any) => e.type));

    // The past call's trace: the same lines.
    const past = expectOk(await svcRun(['calls', 'get', call.id, '--trace']));
    expect(lines(past.stdout)).toEqual(traceLines);
    const withTrace = await json(['calls', 'get', call.id, '--trace']);
    expect(withTrace).toMatchObject({ id: call.id, status: 'completed' });
    expect(withTrace.trace).toEqual(trace);
    const csv = lines(expectOk(await svcRun(['calls', 'get', call.id, '--trace', '-o', 'csv'])).stdout);
    expect(csv[0]).toBe('at,step,detail');
    expect(csv.length).toBe(trace.length + 1);

    // The recording: -O FILE, the pipe, and <id>.wav in the working directory at a terminal.
    const file = join(tmp, 'rec.wav');
    expectOk(await svcRun(['calls', 'recording', call.id, '-O', file]));
    expect(isWav(readFileSync(file))).toBe(true);
    const io = createTestIO();
    const piped = await runSvc(['calls', 'recording', call.id], { service: svc, io });
    expect(piped.code, piped.stderr).toBe(0);
    expect(isWav(io.outBytes())).toBe(true);
    expect(io.outBytes().equals(readFileSync(file))).toBe(true);
    const term = await atTerminal(['calls', 'recording', call.id], tmp);
    expect(term.code, term.stderr).toBe(0);
    expect(term.stderr).toContain(join(tmp, `${call.id}.wav`));
    expect(isWav(readFileSync(join(tmp, `${call.id}.wav`)))).toBe(true);
  });

  it('ends as soon as the service says nothing more is to come: no quiet period read after the last step', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN, recordCalls: true });
    // Every read of the call's trace the command makes, as the client decoded it.
    const reads: Array<{ data: unknown[]; complete?: boolean }> = [];
    const io = createTestIO();
    const env = { SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey, SVC_CONFIG_DIR: join(tmp, 'cfg-follow'), HOME: tmp };
    const observe = (e: { method: string; path: string; data: unknown }) => {
      if (e.method === 'GET' && /^\/v1\/calls\/[^/]+\/trace$/.test(e.path)) reads.push(e.data as { data: unknown[]; complete?: boolean });
    };
    const args = ['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER, '--answer', 'first', '--after', '2s', '--duration', '3s', '--fast-forward', '-o', 'json'];
    const code = await runCli(args, { io, env, homedir: tmp, binPath: BIN_PATH, observe });
    expect(code, io.err()).toBe(0);
    const done = JSON.parse(io.out());
    // The service's state: the whole trace, transcript included, and nothing left to run.
    const final = await svc.call('GET', `/v1/calls/${done.id}/trace`);
    expect(final.body.complete).toBe(true);
    expect(final.body.data.map((t: { step: string }) => t.step)).toContain('transcript');
    expect(done.trace).toEqual(final.body.data);
    // The old follower read the finished trace again and again for 2 s of quiet; now the first read
    // that has it all is the last read.
    const whole = reads.filter((r) => r.data.length === final.body.data.length);
    expect(whole).toHaveLength(1);
    expect(reads.at(-1)).toBe(whole[0]);
    expect(whole[0]!.complete).toBe(true);
    // Before it, the trace said more was to come.
    expect(reads.slice(0, -1).every((r) => r.complete === false)).toBe(true);
  });

  it('-o json prints the final call with its trace; --no-wait prints the ringing call at once', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    const done = await json(['calls', 'simulate', '--to', n.id, '--from', CALLER, '--hangup-after', '4s', '--fast-forward']);
    expect(done).toMatchObject({ to: n.phoneNumber, status: 'missed' });
    expect(done.trace).toEqual(await apiTrace(done.id));
    expect(done.trace.map((t: any) => t.step)).toContain('hangup');

    const ringing = await json(['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER, '--no-wait']);
    expect(ringing).toMatchObject({ status: 'ringing', answeredAt: null });
    const missed = await json(['calls', 'list', '--status', 'missed']);
    expect(missed.length).toBeGreaterThan(0);
    expect(missed.every((c: any) => c.status === 'missed')).toBe(true);
    // Not recorded: exit 4.
    expect((await svcRun(['calls', 'recording', done.id, '-O', join(tmp, 'none.wav')])).code).toBe(4);
  });

  it('calls press sends the caller\'s keys to the IVR of a call under way; calls hangup ends it; bad keys exit 2 naming the argument, sending nothing', async () => {
    const n = await voiceNumber({
      destinations: [{ destinationType: 'pstn', destination: PSTN }],
      voicemailEnabled: true,
      ivr: { enabled: true, greeting: { text: 'Press 2 for voicemail' }, keys: [{ digit: '2', label: 'Voicemail', action: { type: 'voicemail' } }] },
    });
    const ringing = await json(['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER, '--no-wait']);
    await svc.advanceJobs(0);
    const bad = await svcRun(['calls', 'press', ringing.id, '2x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('<digits>');
    expect((await apiTrace(ringing.id)).some((t: any) => t.step === 'ivr.key')).toBe(false);

    const pressed = await json(['calls', 'press', ringing.id, '2']);
    expect(pressed).toMatchObject({ id: ringing.id, endedAt: null });
    await svc.advanceJobs(0);
    expect((await apiTrace(ringing.id)).find((t: any) => t.step === 'ivr.key')?.detail).toBe('2 (Voicemail) → voicemail');

    const hung = await json(['calls', 'hangup', ringing.id]);
    expect(hung.id).toBe(ringing.id);
    await svc.advanceJobs(0);
    expect((await json(['calls', 'get', ringing.id])).endedAt).not.toBeNull();
    // No longer under way: conflict, exit 5.
    expect((await svcRun(['calls', 'hangup', ringing.id])).code).toBe(5);
  });

  it('without --fast-forward it says the clock is manual and follows the call as the clock moves', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    const io = createTestIO();
    const running = runSvc(['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER, '--hangup-after', '5s'], { service: svc, io });
    for (let i = 0; i < 100 && !io.err().includes('manual'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(io.err()).toContain('svc clock advance');
    expect(io.out()).toBe('');
    const adv = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 10 } });
    expect(adv.status).toBe(200);
    const r = await running;
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/ hangup /);
    expect(r.stdout).toContain('call.missed');
  });

  it('Ctrl-C stops following (exit 130) and says how to look at the call later', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    const io = createTestIO();
    let interrupt!: () => void;
    const interrupted = new Promise<void>((resolve) => (interrupt = resolve));
    const running = runSvc(['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER], { service: svc, io, waitForInterrupt: () => interrupted });
    for (let i = 0; i < 100 && !io.err().includes('manual'); i++) await new Promise((r) => setTimeout(r, 50));
    interrupt();
    const r = await running;
    expect(r.code).toBe(130);
    expect(r.stderr).toMatch(/svc calls get call_\S+ --trace/);
  });

  it('svc trigger call.missed and voicemail.received are the same command: a missed call, its voicemail and its audio', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN, voicemailEnabled: true });
    const r = expectOk(await svcRun(['trigger', 'voicemail.received', '--to', n.phoneNumber, '--from', CALLER, '--fast-forward']));
    expect(r.stdout).toMatch(/ voicemail /);
    const ev = lines(r.stdout.slice(r.stdout.indexOf('events:')));
    expect(ev.map((l) => l.trim().split(/\s+/)[1]).slice(1)).toEqual(['call.missed', 'voicemail.received']);

    const vms = await json(['voicemails', 'list']);
    expect(vms.length).toBeGreaterThan(0);
    const vm = vms[0];
    expect(vm).toMatchObject({ id: expect.stringMatching(/^vm_/), to: n.phoneNumber, from: CALLER });
    expect(await json(['voicemails', 'get', vm.id])).toEqual(vm);
    const file = join(tmp, 'vm.wav');
    expectOk(await svcRun(['voicemails', 'audio', vm.id, '-O', file]));
    expect(isWav(readFileSync(file))).toBe(true);
    expect((await svcRun(['voicemails', 'get', 'vm_nope'])).code).toBe(4);

    const missed = expectOk(await svcRun(['trigger', 'call.missed', '--to', n.phoneNumber, '--from', CALLER, '--fast-forward', '-o', 'json']));
    expect(JSON.parse(missed.stdout)).toMatchObject({ status: 'missed', outcome: 'voicemail' });
    const listed = expectOk(await svcRun(['trigger', '--list'])).stdout;
    for (const type of ['call', 'call.ringing', 'call.completed', 'call.missed', 'call.ivr.key_pressed', 'call.transcript', 'call.transcript.delta', 'voicemail.received']) expect(listed).toContain(`${type}\t`);
  });

  it('trigger call.ringing rings an online softphone (one call.ringing for its device); call.completed answers on it', async () => {
    const dev = await json(['softphone', 'devices', 'register', '--user', 'dana', '--label', 'Desk']);
    const n = await voiceNumber({ destinationType: 'webrtc', destination: dev.id });
    expectOk(await svcRun(['softphone', 'devices', 'presence', dev.id, 'online']));
    const rang = expectOk(await svcRun(['trigger', 'call.ringing', '--to', n.phoneNumber, '--from', CALLER, '--fast-forward']));
    expect(rang.stdout).toContain(dev.id);
    const ev = lines(rang.stdout.slice(rang.stdout.indexOf('events:'))).slice(1);
    expect(ev.map((l) => l.trim().split(/\s+/)[1])).toEqual(['call.ringing', 'call.missed']);

    expectOk(await svcRun(['softphone', 'devices', 'presence', dev.id, 'online']));
    const call = await json(['trigger', 'call.completed', '--to', n.phoneNumber, '--from', CALLER, '--answer', dev.id, '--duration', '5s', '--fast-forward']);
    expect(call).toMatchObject({ status: 'completed', answeredDevice: dev.id, durationSeconds: 5 });
  });
});

describe('the IVR and live transcription triggers', () => {
  it('trigger call.ivr.key_pressed presses 1 by default: the key event, then its action rings', async () => {
    const n = await voiceNumber({
      destinations: [{ destinationType: 'pstn', destination: PSTN }],
      ivr: {
        enabled: true,
        greeting: { text: 'Press 1 for sales' },
        keys: [{ digit: '1', label: 'Sales', action: { type: 'ring', destinations: [{ destinationType: 'pstn', destination: '+14155550177' }] } }],
      },
    });
    const r = expectOk(await svcRun(['trigger', 'call.ivr.key_pressed', '--to', n.phoneNumber, '--from', CALLER, '--answer', 'first', '--duration', '3s', '--fast-forward']));
    const steps = lines(r.stdout.slice(0, r.stdout.indexOf('events:'))).map((l) => l.split(/\s+/)[2]);
    expect(steps.indexOf('ivr.prompt')).toBeGreaterThanOrEqual(0);
    expect(steps.indexOf('ivr.key')).toBeGreaterThan(steps.indexOf('ivr.prompt'));
    expect(steps.indexOf('answered')).toBeGreaterThan(steps.indexOf('ivr.key'));
    const types = lines(r.stdout.slice(r.stdout.indexOf('events:'))).slice(1).map((l) => l.trim().split(/\s+/)[1]);
    expect(types).toEqual(['call.ivr.key_pressed', 'call.completed']);
  });

  it('trigger call.transcript.delta: live transcript steps while bridged (not in the durable events list)', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN, liveTranscription: true });
    const r = expectOk(await svcRun(['trigger', 'call.transcript.delta', '--to', n.phoneNumber, '--from', CALLER, '--duration', '12s', '--fast-forward']));
    expect(r.stdout).toMatch(/ transcript\.live /);
    expect(r.stdout.slice(r.stdout.indexOf('events:'))).not.toContain('call.transcript.delta');
  });
});

describe('--dry-run', () => {
  it('shows the write that would be sent, after the reads that build it; nothing is placed or changed', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    const before = (await json(['calls', 'list', '--all'])).length;
    const sim = expectOk(await svcRun(['calls', 'simulate', '--to', n.id, '--from', CALLER, '--answer', 'first', '--dry-run']));
    expect(sim.stdout).toContain('POST');
    expect(sim.stdout).toContain('/v1/sandbox/calls');
    expect(sim.stdout).toContain(n.phoneNumber);
    expect((await json(['calls', 'list', '--all'])).length).toBe(before);

    const entry = await json(['blocked-numbers', 'add', '+14155550155']);
    const upd = expectOk(await svcRun(['blocked-numbers', 'update', '+14155550155', '--reason', 'x', '--dry-run']));
    expect(upd.stdout).toContain(`PATCH`);
    expect(upd.stdout).toContain(`/v1/blocked-numbers/${entry.id}`);
    expect((await json(['blocked-numbers', 'get', entry.id])).reason).toBeNull();
  });
});

describe('calls transfer', () => {
  it('transfers a call in progress; a finished call is a conflict (exit 5)', async () => {
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    const dev = await json(['softphone', 'devices', 'register', '--user', 'erin', '--label', 'Desk']);
    const call = await json(['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER, '--answer', 'first', '--duration', '2m', '--no-wait']);
    const adv = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 2 } });
    expect(adv.status).toBe(200);
    expect((await json(['calls', 'get', call.id])).status).toBe('in_progress');
    const moved = await json(['calls', 'transfer', call.id, '--to', '+14155550188']);
    expect(moved).toMatchObject({ id: call.id, status: 'in_progress' });
    const toDevice = await json(['calls', 'transfer', call.id, '--to', dev.id]);
    expect(toDevice.id).toBe(call.id);

    const finished = await json(['calls', 'simulate', '--to', n.phoneNumber, '--from', CALLER, '--hangup-after', '1s', '--fast-forward']);
    const refused = await svcRun(['calls', 'transfer', finished.id, '--to', '+14155550188']);
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain('conflict');
  });
});

describe('blocked-numbers', () => {
  it('add (twice: exit 5), get and update by number or id, a blocked call, remove', async () => {
    const spammer = '+14155550177';
    const entry = await json(['blocked-numbers', 'add', spammer, '--reason', 'robocaller']);
    expect(entry).toMatchObject({ phoneNumber: spammer, reason: 'robocaller', autoSuggested: false, blockedCallCount: 0 });
    const again = await svcRun(['blocked-numbers', 'add', spammer]);
    expect(again.code).toBe(5);
    expect(await json(['blocked-numbers', 'get', spammer])).toEqual(entry);
    expect((await json(['blocked-numbers', 'get', entry.id])).id).toBe(entry.id);
    expect(await json(['blocked-numbers', 'update', spammer, '--reason', 'spam'])).toMatchObject({ id: entry.id, reason: 'spam' });
    expect((await json(['blocked-numbers', 'update', entry.id, '--reason', ''])).reason).toBeNull();
    const listed = await json(['blocked-numbers', 'list']);
    expect(listed.length).toBeGreaterThan(0);
    expect(listed.map((e: any) => e.id)).toContain(entry.id);

    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    const blocked = expectOk(await svcRun(['calls', 'simulate', '--to', n.phoneNumber, '--from', spammer, '--fast-forward']));
    expect(lines(blocked.stdout)[0]).toMatch(/ blocklist /);
    expect((await json(['blocked-numbers', 'get', spammer])).blockedCallCount).toBe(1);

    expectOk(await svcRun(['blocked-numbers', 'remove', spammer, '--yes']));
    const gone = await svcRun(['blocked-numbers', 'get', spammer]);
    expect(gone.code).toBe(4);
    expect((await svcRun(['blocked-numbers', 'get', entry.id])).code).toBe(4);
  });

  it('list --suggested shows the service suggestion after 5 short calls; confirm makes it block', async () => {
    const caller = '+14155550166';
    const n = await voiceNumber({ destinationType: 'pstn', destination: PSTN });
    for (let i = 0; i < 5; i++) expectOk(await svcRun(['calls', 'simulate', '--to', n.phoneNumber, '--from', caller, '--hangup-after', '1s', '--no-wait']));
    const adv = await svc.call('POST', '/v1/sandbox/clock/advance', { body: { seconds: 5 } });
    expect(adv.status).toBe(200);
    const suggested = await json(['blocked-numbers', 'list', '--suggested']);
    expect(suggested.length).toBeGreaterThan(0);
    expect(suggested.every((e: any) => e.autoSuggested === true)).toBe(true);
    expect(suggested.map((e: any) => e.phoneNumber)).toContain(caller);
    const confirmed = await json(['blocked-numbers', 'confirm', caller]);
    expect(confirmed).toMatchObject({ phoneNumber: caller, autoSuggested: false });
    expect((await json(['blocked-numbers', 'list', '--suggested', '--all'])).map((e: any) => e.phoneNumber)).not.toContain(caller);
  });
});

describe('completion asks the local service for voice ids', () => {
  it('calls, voicemails, devices and blocked numbers', async () => {
    const lookup = createLookup({ env: { SVC_BASE_URL: svc.baseUrl, SVC_API_KEY: svc.bootstrap.liveKey }, homedir: tmp, platform: 'linux', configDir: join(tmp, 'cfg-complete') }, LOOKUP_LISTS);
    // A lookup gives up after LOOKUP_TIMEOUT_MS (700 ms: a TAB never waits longer) and completes
    // nothing. The service answers in this test's own process (with SVC_TEST_REPLICAS, two replicas
    // and the proxy too), which a machine at a load average of 15+ can hold past that bound: the TAB
    // is pressed again, as a person would, up to 3 times, while it completes nothing.
    const values = async (source: Parameters<typeof lookup>[0]) => {
      let found: string[] = [];
      for (let press = 0; press < 3 && found.length === 0; press++) found = (await lookup(source, {})).map((c) => c.value);
      return found;
    };
    // The lookup reads up to 100; this file places more calls than one default page.
    const calls = await json(['calls', 'list', '--limit', '100']);
    expect(calls.length).toBeGreaterThan(0);
    expect(await values('calls')).toEqual(calls.map((c: any) => c.id));
    const vms = await json(['voicemails', 'list']);
    expect(vms.length).toBeGreaterThan(0);
    expect(await values('voicemails')).toEqual(vms.map((v: any) => v.id));
    const devices = await json(['softphone', 'devices', 'list']);
    expect(devices.length).toBeGreaterThan(0);
    expect(await values('devices')).toEqual(devices.map((d: any) => d.id));
    const blocked = await json(['blocked-numbers', 'list']);
    expect(blocked.length).toBeGreaterThan(0);
    expect(await values('blocked-numbers')).toEqual(blocked.map((b: any) => b.phoneNumber));
  });
});
