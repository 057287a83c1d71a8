// Shell completion as a person meets it: the scripts `svc completion` prints, loaded in real bash
// and zsh at a terminal (tmux, TAB pressed) and in fish's own completion engine. The words before
// the cursor go to `svc __complete`, which answers from the built command tree and, for ids, from
// the local service on loopback.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH, REPO_ROOT } from './helpers/cli.js';
import { openTerminal, shellEnvFor, WAIT_FLOOR_MS, type Terminal } from './helpers/terminal.js';

let svc: TestService;
let tmp: string;
let env: Record<string, string>;
let phoneNumber: string;
let webhookId: string;
let domainName: string;
let messageId: string;
/** Sub-accounts: one with a name of several words, two that share a name, one whose name is shell code. */
const subaccounts: Record<string, string> = {};
let pwned: string;
const open: Terminal[] = [];
const execFileAsync = promisify(execFile);

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-completion-'));
  env = shellEnvFor(svc, tmp, BIN_PATH);
  const found = await svc.call('POST', '/v1/numbers/search', { body: { type: 'local', areaCode: '415', limit: 1 }, key: svc.bootstrap.testKey });
  expect(found.status).toBe(200);
  const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber }, key: svc.bootstrap.testKey });
  expect(bought.status).toBe(201);
  phoneNumber = bought.body.phoneNumber;
  const hook = await svc.call('POST', '/v1/webhooks', { body: { url: 'http://127.0.0.1:9/hooks' }, key: svc.bootstrap.testKey });
  expect(hook.status).toBe(201);
  webhookId = hook.body.id;
  const domain = await svc.call('POST', '/v1/domains', { body: { domain: 'send.completion-test.example' }, key: svc.bootstrap.testKey });
  expect(domain.status).toBe(201);
  domainName = domain.body.domain;
  const sent = await svc.call('POST', '/v1/messages', { body: { from: phoneNumber, to: '+14155550123', body: 'completion' }, key: svc.bootstrap.testKey });
  expect(sent.status, sent.text).toBe(201);
  messageId = sent.body.id;
  pwned = join(tmp, 'pwned');
  for (const name of ['Harbor Bikes East', 'Twin', 'twin', `$(touch ${pwned})`]) {
    const made = await svc.call('POST', '/v1/subaccounts', { body: { name } });
    expect(made.status, made.text).toBe(201);
    subaccounts[name] = made.body.id;
  }
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// Asynchronous: the service answers from this process, so a blocking child would starve it.
const fishRaw = async (line: string, extraEnv: Record<string, string> = {}): Promise<string> =>
  (await execFileAsync('fish', ['--no-config', '-c', `source ${join(REPO_ROOT, 'completions', 'svc.fish')}; complete -C ${JSON.stringify(line)}`], { env: { ...env, ...extraEnv }, encoding: 'utf8' })).stdout;
const fish = async (line: string): Promise<string[]> =>
  (await fishRaw(line))
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t')[0]!);

function shell(kind: 'bash' | 'zsh'): Terminal {
  const t =
    kind === 'bash'
      ? openTerminal(['bash', '--norc', '--noprofile'], { env: { ...env, PS1: 'READY$ ' } })
      : openTerminal(['zsh', '-f'], { env: { ...env, PS1: 'READY%% ' } });
  open.push(t);
  return t;
}

async function ready(t: Terminal, setup: string): Promise<void> {
  await t.until((s) => /READY[$%] $/.test(s), 10_000, 'a prompt');
  t.type(setup);
  t.press('Enter');
  await t.until((s) => s.includes(setup) && /\nREADY[$%] $/.test(s), 10_000, 'the script loaded');
  t.press('C-l');
  await t.until((s) => /^READY[$%] $/.test(s), 5_000, 'a clear screen');
}

/** Types `line`, presses TAB, returns the command line as the shell then shows it. */
async function tab(t: Terminal, line: string, expected: string): Promise<void> {
  t.type(line);
  t.press('Tab');
  await t.until((s) => s.includes(expected), 10_000, `"${expected}" after TAB on "${line}"`);
  t.press('C-u'); // clear the line for the next case
  t.press('C-l');
  await t.until((s) => /^READY[$%] $/.test(s), 5_000, 'a clear line');
}

/**
 * `tab` for a word completed from the service: a TAB asks it within the CLI's LOOKUP_TIMEOUT_MS (700)
 * and completes nothing when the answer is later, by design. On a loaded 2-core machine (load average
 * 16, and with SVC_TEST_REPLICAS two services and a proxy in this process) an answer can miss it, so
 * TAB is pressed again, as a person would, while the line stays as typed: what completes still comes
 * from the service.
 */
async function tabId(t: Terminal, line: string, expected: string): Promise<void> {
  t.type(line);
  const deadline = Date.now() + WAIT_FLOOR_MS;
  for (let pressed = 0; ; pressed++) {
    t.press('Tab');
    // A TAB starts svc (1-9 s at that load) whose lookup gives up after 700 ms; an extra TAB pressed
    // while one still runs waits its turn and finds the line completed, which stays on screen.
    const retryAt = Date.now() + 5_000;
    while (!t.screen().includes(expected) && Date.now() < Math.min(retryAt, deadline)) await new Promise((r) => setTimeout(r, 50));
    if (t.screen().includes(expected)) break;
    if (Date.now() >= deadline) throw new Error(`terminal: no "${expected}" after ${pressed + 1} TABs on "${line}"; screen:\n${t.screen()}`);
  }
  t.press('C-u');
  t.press('C-l');
  await t.until((s) => /^READY[$%] $/.test(s), 5_000, 'a clear line');
}

describe.each(['bash', 'zsh'] as const)('%s at a terminal', (kind) => {
  let t: Terminal;
  beforeAll(async () => {
    t = shell(kind);
    const script = join(REPO_ROOT, 'completions', kind === 'bash' ? 'svc.bash' : '_svc');
    await ready(t, kind === 'bash' ? `source ${script}` : `autoload -Uz compinit && compinit -u && source ${script}`);
  });

  it('completes a command after a leading global flag and its value', async () => {
    await tab(t, 'svc -o json mes', 'svc -o json messages ');
  });

  it('completes verbs, flag values and the output formats', async () => {
    await tab(t, 'svc numbers rel', 'svc numbers release ');
    await tab(t, 'svc -o nd', 'svc -o ndjson ');
    await tab(t, 'svc numbers list --status rel', 'svc numbers list --status released ');
    await tab(t, 'svc completion fi', 'svc completion fish ');
  });

  it('completes ids from the local service', async () => {
    await tabId(t, 'svc numbers get +', `svc numbers get ${phoneNumber} `);
    await tabId(t, 'svc webhooks get we_', `svc webhooks get ${webhookId} `);
    // Message ids, and the account's numbers for a send's sender.
    await tabId(t, 'svc messages get msg_', `svc messages get ${messageId} `);
    await tabId(t, 'svc messages send --to +14155550123 --from +', `svc messages send --to +14155550123 --from ${phoneNumber} `);
  });

  it('completes a sub-account for context use by its name, as one word, or by its id; a name is never run', async () => {
    await tabId(t, 'svc context use Harb', 'svc context use Harbor\\ Bikes\\ East ');
    const id = subaccounts['Harbor Bikes East']!;
    await tabId(t, `svc context use ${id.slice(0, 8)}`, `svc context use ${id} `);
    // Every candidate was read, the one whose name is `$(touch …)` too: read as text, never run.
    expect(existsSync(pwned)).toBe(false);
  });
});

describe('fish', () => {
  it('completes commands after global flags, flag values, event types and ids', async () => {
    expect(await fish('svc -o json mes')).toEqual(['messages']);
    expect(await fish('svc --profile ')).toContain('local');
    expect(await fish('svc events follow --types message.received,message.s')).toEqual(['message.received,message.status']);
    expect((await fish('svc webhooks listen --events mess')).sort()).toEqual(['message.*', 'message.received', 'message.status']);
    expect(await fish('svc webhooks test ')).toEqual([webhookId]);
    expect(await fish('svc numbers update ')).toEqual([phoneNumber]);
    expect(await fish('svc domains verify ')).toEqual([domainName]);
    expect(await fish('svc messages get ')).toEqual([messageId]);
    expect(await fish('svc messages send --from ')).toEqual([phoneNumber]);
  });

  it('completes context use with the unique sub-account names and every id', async () => {
    const offered = await fish('svc context use ');
    const ids = Object.values(subaccounts);
    expect(offered.sort()).toEqual(['Harbor Bikes East', `$(touch ${pwned})`, ...ids].sort());
    expect(existsSync(pwned)).toBe(false);
  });

  it('completes no ids when the service is not on loopback (a TAB never reaches the network)', async () => {
    expect(await fish('svc numbers get ')).toEqual([phoneNumber]);
    expect(await fishRaw('svc numbers get ', { SVC_BASE_URL: 'https://api.example.com' })).toBe('');
  });
});

describe('svc __complete (what every shell script calls)', () => {
  const complete = async (words: string[], extraEnv: Record<string, string | undefined>) => {
    const merged = Object.fromEntries(Object.entries({ ...env, ...extraEnv }).filter((e): e is [string, string] => e[1] !== undefined));
    return await execFileAsync(process.execPath, [BIN_PATH, '__complete', 'bash', ...words], { env: merged, encoding: 'utf8' });
  };

  it('context use: the names no other sub-account has, each once, then every id', async () => {
    const { stdout } = await complete(['context', 'use', ''], {});
    const lines = stdout.split('\n').filter(Boolean);
    expect(lines.slice(0, 2).sort()).toEqual(['Harbor Bikes East', `$(touch ${pwned})`].sort());
    expect(lines.slice(2).sort()).toEqual(Object.values(subaccounts).sort());
  });

  it('mcp --groups completes the tool groups of the registry, each item of the list', async () => {
    const first = (await complete(['mcp', '--groups', ''], {})).stdout.split('\n').filter(Boolean);
    expect(first).toEqual(expect.arrayContaining(['messages', 'numbers', 'webhooks', 'emails']));
    // Groups that serve no tool (they act on this machine) are not offered.
    expect(first).not.toEqual(expect.arrayContaining(['profiles']));
    expect(first).not.toContain('completion');
    const next = (await complete(['mcp', '--groups', 'messages,num'], {})).stdout.split('\n').filter(Boolean);
    expect(next).toContain('messages,numbers');
    expect(next).not.toContain('messages,messages');
  });

  it('a local service that is not running: nothing printed, nothing started', async () => {
    // The data directory of a stopped local service: its keys, and an address nobody answers on.
    const gone = await startTestService();
    const { baseUrl, bootstrap } = gone;
    await gone.stop();
    const dataDir = join(tmp, 'stopped');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'bootstrap.json'), JSON.stringify({ accountId: bootstrap.accountId, baseUrl, liveKey: bootstrap.liveKey, testKey: bootstrap.testKey }));
    const res = await complete(['context', 'use', ''], { SVC_DATA_DIR: dataDir, SVC_BASE_URL: undefined, SVC_API_KEY: undefined });
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe('');
    expect(readdirSync(dataDir)).toEqual(['bootstrap.json']);
  });
});
