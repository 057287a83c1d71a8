// The voice verbs' flags → typed options without running anything (the GitHub CLI's runF), and the
// usage errors a bad flag gets (exit 2, naming the flag) before any request is sent.
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/main.js';
import { createTestIO } from '../src/output/io.js';
import { UsageError } from '../src/cli/errors.js';
import { verbs as callVerbs } from '../src/cli/commands/calls/index.js';
import type { GetCallOptions } from '../src/cli/commands/calls/get.run.js';
import type { CallRecordingOptions } from '../src/cli/commands/calls/recording.run.js';
import type { TransferCallOptions } from '../src/cli/commands/calls/transfer.run.js';
import type { SimulateOptions } from '../src/cli/commands/calls/simulate-flags.js';
import { scenarioOf } from '../src/cli/commands/calls/simulate.run.js';
import { STEP_WIDTH, traceLine } from '../src/cli/commands/calls/trace-lines.js';
import { verbs as voicemailVerbs } from '../src/cli/commands/voicemails/index.js';
import type { VoicemailAudioOptions } from '../src/cli/commands/voicemails/audio.run.js';
import { verbs as blockedVerbs } from '../src/cli/commands/blocked-numbers/index.js';
import { verbs as softphoneVerbs } from '../src/cli/commands/softphone/index.js';
import { TRIGGERS } from '../src/cli/commands/trigger/registry.js';
import { EVENT_TYPES } from '../src/api/schemas/events.js';
import { context, optionsOf, verbNamed } from './helpers/verb-flags.js';

const callsList = verbNamed(callVerbs, 'list');
const callsGet = verbNamed(callVerbs, 'get');
const recordingCommand = verbNamed(callVerbs, 'recording');
const transferCommand = verbNamed(callVerbs, 'transfer');
const simulateCommand = verbNamed(callVerbs, 'simulate');


/** `svc ARGS` in-process with no service anywhere: only what fails before a request can pass here. */
async function svcNoService(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = createTestIO();
  // Port 9 (discard) on loopback: nothing is sent there by these cases, and nothing could answer.
  const env = { SVC_BASE_URL: 'http://127.0.0.1:9', SVC_API_KEY: 'sk_test_0000000000000000000000000000000a', SVC_CONFIG_DIR: '/nonexistent/svc-config' };
  const code = await runCli(args, { io, env, homedir: '/nonexistent', binPath: '' });
  return { code, stdout: io.out(), stderr: io.err() };
}

describe('voice flags become typed options', () => {
  it('calls list: status, direction and the list flags', async () => {
    expect(await optionsOf(callsList, ['--status', 'missed', '--direction', 'inbound', '--limit', '5', '--all', '--cursor', 'c1'])).toEqual({
      status: 'missed',
      direction: 'inbound',
      limit: '5',
      all: true,
      cursor: 'c1',
    });
    await expect(optionsOf(callsList, ['--status', 'ended'])).rejects.toThrow(/ended/);
  });

  it('calls get, recording, transfer', async () => {
    expect(await optionsOf<GetCallOptions>(callsGet, ['call_1'])).toEqual({ id: 'call_1', trace: false });
    expect(await optionsOf<GetCallOptions>(callsGet, ['call_1', '--trace'])).toEqual({ id: 'call_1', trace: true });
    expect(await optionsOf<CallRecordingOptions>(recordingCommand, ['call_1', '-O', 'x.wav'])).toEqual({ id: 'call_1', out: 'x.wav' });
    expect(await optionsOf<CallRecordingOptions>(recordingCommand, ['call_1'])).toEqual({ id: 'call_1', out: undefined });
    expect(await optionsOf<TransferCallOptions>(transferCommand, ['call_1', '--to', 'dev_1'])).toEqual({ id: 'call_1', to: 'dev_1' });
    await expect(optionsOf<TransferCallOptions>(transferCommand, ['call_1'])).rejects.toThrow(/--to/);
  });

  it('calls simulate: every scenario flag, --no-wait and --fast-forward', async () => {
    const argv = ['--to', '+14155550100', '--from', '+14155550123', '--answer', 'dst_1', '--after', '5s', '--duration', '1m', '--digits', '1#', '--machine', '--hangup-after', '10s', '--fast-forward', '--no-wait'];
    expect(await optionsOf<SimulateOptions>(simulateCommand, argv)).toEqual({
      to: '+14155550100',
      from: '+14155550123',
      answer: 'dst_1',
      after: '5s',
      duration: '1m',
      digits: '1#',
      machine: true,
      hangupAfter: '10s',
      fastForward: true,
      wait: false,
    });
    expect(await optionsOf<SimulateOptions>(simulateCommand, ['--to', 'num_1', '--from', '+14155550123'])).toEqual({ to: 'num_1', from: '+14155550123', wait: true });
    await expect(optionsOf<SimulateOptions>(simulateCommand, ['--from', '+14155550123'])).rejects.toThrow(/--to/);
  });

  it('voicemails list, get, audio', async () => {
    expect(await optionsOf(verbNamed(voicemailVerbs, 'list'), ['--limit', '2'])).toEqual({ limit: '2' });
    expect(await optionsOf(verbNamed(voicemailVerbs, 'get'), ['vm_1'])).toEqual({ id: 'vm_1' });
    expect(await optionsOf<VoicemailAudioOptions>(verbNamed(voicemailVerbs, 'audio'), ['vm_1', '--out', '-'])).toEqual({ id: 'vm_1', out: '-' });
  });

  it('blocked-numbers list, add, get, confirm, update, remove', async () => {
    expect(await optionsOf(verbNamed(blockedVerbs, 'list'), ['--suggested', '--all'])).toEqual({ suggested: true, all: true });
    expect(await optionsOf(verbNamed(blockedVerbs, 'list'), [])).toEqual({});
    expect(await optionsOf(verbNamed(blockedVerbs, 'add'), ['+14155550199', '--reason', 'spam'])).toEqual({ phoneNumber: '+14155550199', reason: 'spam' });
    expect(await optionsOf(verbNamed(blockedVerbs, 'get'), ['+14155550199'])).toEqual({ entry: '+14155550199' });
    expect(await optionsOf(verbNamed(blockedVerbs, 'confirm'), ['b-1'])).toEqual({ entry: 'b-1' });
    expect(await optionsOf(verbNamed(blockedVerbs, 'update'), ['b-1', '--reason', ''])).toEqual({ entry: 'b-1', reason: '' });
    await expect(optionsOf(verbNamed(blockedVerbs, 'update'), ['b-1'])).rejects.toThrow(/--reason/);
    expect(await optionsOf(verbNamed(blockedVerbs, 'delete'), ['b-1'])).toEqual({ entry: 'b-1' });
  });

  it('softphone devices register, list, remove, token, presence; softphone call', async () => {
    expect(await optionsOf(verbNamed(softphoneVerbs, 'devices register'), ['--user', 'u_1', '--label', 'Desk'])).toEqual({ user: 'u_1', label: 'Desk' });
    await expect(optionsOf(verbNamed(softphoneVerbs, 'devices register'), ['--user', 'u_1'])).rejects.toThrow(/--label/);
    expect(await optionsOf(verbNamed(softphoneVerbs, 'devices list'), ['--limit', '3'])).toEqual({ limit: '3' });
    expect(await optionsOf(verbNamed(softphoneVerbs, 'devices delete'), ['dev_1'])).toEqual({ id: 'dev_1' });
    expect(await optionsOf(verbNamed(softphoneVerbs, 'devices token'), ['dev_1'])).toEqual({ id: 'dev_1' });
    expect(await optionsOf(verbNamed(softphoneVerbs, 'devices presence'), ['dev_1', 'online'])).toEqual({ id: 'dev_1', status: 'online' });
    await expect(optionsOf(verbNamed(softphoneVerbs, 'devices presence'), ['dev_1', 'away'])).rejects.toThrow(/away/);
    expect(await optionsOf(verbNamed(softphoneVerbs, 'call'), ['--device', 'dev_1', '--from', '+14155550100', '--to', '+14155550123'])).toEqual({
      device: 'dev_1',
      from: '+14155550100',
      to: '+14155550123',
    });
  });
});

describe('the sandbox call scenario from the flags', () => {
  const base = { to: '+14155550100', from: '+14155550123' };
  const usage = (opts: Partial<SimulateOptions>): UsageError => {
    try {
      scenarioOf({ ...base, ...opts });
    } catch (err) {
      expect(err).toBeInstanceOf(UsageError);
      return err as UsageError;
    }
    throw new Error('no usage error');
  };

  it('nobody answers by default; the service fills the answer defaults it owns', () => {
    expect(scenarioOf(base)).toEqual({ answer: null, digits: '', machine: false, hangupAfterSecs: null });
    expect(scenarioOf({ ...base, answer: 'first' })).toEqual({ answer: {}, digits: '', machine: false, hangupAfterSecs: null });
  });

  it('--answer picks a destination, a device or the first leg; durations become seconds', () => {
    expect(scenarioOf({ ...base, answer: 'dst_9', after: '5s', duration: '1m30s', digits: '2*', machine: true, hangupAfter: '2m' })).toEqual({
      answer: { destinationId: 'dst_9', afterSecs: 5, durationSecs: 90 },
      digits: '2*',
      machine: true,
      hangupAfterSecs: 120,
    });
    expect(scenarioOf({ ...base, answer: 'dev_9' }).answer).toEqual({ deviceId: 'dev_9' });
  });

  it('each bad value names its flag', () => {
    expect(usage({ answer: 'bob' }).flag).toBe('--answer');
    expect(usage({ after: '5s' }).flag).toBe('--after');
    expect(usage({ duration: '5s' }).flag).toBe('--duration');
    expect(usage({ answer: 'first', after: 'soon' }).flag).toBe('--after');
    expect(usage({ digits: '12a' }).flag).toBe('--digits');
    expect(usage({ digits: '1'.repeat(33) }).flag).toBe('--digits');
    expect(usage({ hangupAfter: '2d' }).flag).toBe('--hangup-after');
  });
});

describe('bad flags and arguments: exit 2 naming the flag, nothing sent', () => {
  const cases: [string[], RegExp][] = [
    [['calls', 'list', '--bogus'], /--bogus/],
    [['calls', 'list', '--status', 'ended'], /--status/],
    [['calls', 'list', '--limit', '0'], /--limit/],
    [['calls', 'get', 'call_1', '--bogus'], /--bogus/],
    [['calls', 'recording', 'call_1', '--bogus'], /--bogus/],
    [['calls', 'transfer', 'call_1'], /--to/],
    [['calls', 'transfer', 'call_1', '--to', 'bob'], /--to/],
    [['calls', 'transfer', 'call_1', '--to', '+1abc'], /--to/],
    [['calls', 'simulate', '--from', '+14155550123'], /--to/],
    [['calls', 'simulate', '--to', '+14155550100', '--from', 'bob'], /--from/],
    [['calls', 'simulate', '--to', '+14155550100', '--from', '+14155550123', '--after', '5s'], /--after/],
    [['calls', 'simulate', '--to', '+14155550100', '--from', '+14155550123', '--answer', 'x'], /--answer/],
    [['calls', 'simulate', '--to', '+14155550100', '--from', '+14155550123', '--digits', 'ab'], /--digits/],
    [['calls', 'simulate', '--to', '+14155550100', '--from', '+14155550123', '--hangup-after', 'later'], /--hangup-after/],
    [['trigger', 'call', '--to', '+14155550100', '--from', '+14155550123', '--answer', 'x'], /--answer/],
    [['trigger', 'call.missed', '--from', '+14155550123'], /--to/],
    [['voicemails', 'list', '--bogus'], /--bogus/],
    [['voicemails', 'audio'], /id/],
    [['voicemails', 'get', 'vm_1', '--bogus'], /--bogus/],
    [['blocked-numbers', 'list', '--bogus'], /--bogus/],
    [['blocked-numbers', 'add', '4155550199'], /phone-number/],
    [['blocked-numbers', 'get', '+1x'], /entry/],
    [['blocked-numbers', 'update', 'b-1'], /--reason/],
    [['blocked-numbers', 'confirm', 'b-1', '--bogus'], /--bogus/],
    [['blocked-numbers', 'remove', 'b-1', '--bogus'], /--bogus/],
    [['softphone', 'devices', 'register', '--user', 'u_1'], /--label/],
    [['softphone', 'devices', 'list', '--bogus'], /--bogus/],
    [['softphone', 'devices', 'remove'], /id/],
    [['softphone', 'devices', 'token', 'dev_1', '--bogus'], /--bogus/],
    [['softphone', 'devices', 'presence', 'dev_1', 'away'], /away/],
    [['softphone', 'call', '--device', 'dev_1', '--from', '+14155550100'], /--to/],
    [['softphone', 'call', '--device', 'dev_1', '--from', '+14155550100', '--to', '555'], /--to/],
  ];
  it.each(cases)('svc %j', async (args, names) => {
    const r = await svcNoService(args);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(names);
    expect(r.stdout).toBe('');
  });
});

describe('trigger registry: every call event type has its scenario', () => {
  it('lists call, each call.* type and voicemail.received, all with the simulate flags', () => {
    const callTypes = EVENT_TYPES.filter((t) => t.startsWith('call.') || t === 'voicemail.received');
    expect(callTypes.length).toBeGreaterThan(0);
    for (const type of callTypes) expect(Object.keys(TRIGGERS)).toContain(type);
    expect(Object.keys(TRIGGERS)).toContain('call');
    const flags = (type: string) => TRIGGERS[type]!.flags!.map((o) => o.flags.split(' ')[0]);
    expect(flags('call')).toEqual(expect.arrayContaining(['--to', '--from', '--answer', '--fast-forward', '--no-wait']));
    expect(TRIGGERS['call.completed']!.flags!.find((o) => o.flags.startsWith('--answer'))!.default).toBe('first');
    expect(TRIGGERS['call.ivr.key_pressed']!.flags!.find((o) => o.flags.startsWith('--digits'))!.default).toBe('1');
  });
});

describe('a trace line', () => {
  it('shows the time, the seconds since the call started, the step and the detail', () => {
    const line = traceLine({ at: '2026-01-01T10:00:07.000Z', step: 'leg.dialed', detail: 'pstn +14155550123' }, '2026-01-01T10:00:02.000Z');
    expect(line).toBe(`10:00:07  +5s    ${'leg.dialed'.padEnd(STEP_WIDTH)}  pstn +14155550123`);
    expect(STEP_WIDTH).toBeGreaterThanOrEqual('ring.no_answer'.length);
  });
});

describe('svc --help', () => {
  it('lists the voice groups with their summaries', async () => {
    const r = await svcNoService(['--help']);
    expect(r.code).toBe(0);
    for (const group of ['blocked-numbers', 'calls', 'voicemails', 'softphone']) expect(r.stdout).toMatch(new RegExp(`^  ${group} +\\S`, 'm'));
  });
});
