// `svc routes edit` as a person meets it, at a real terminal (tmux): the editor (a script standing
// in for one) changes the route, the plan is shown, the confirmation is answered at the prompt, and
// the saved route is printed as a summary; an invalid edit re-opens the editor with the errors; a
// change made on the service while the editor is open is the base of the plan, and one made while
// the confirmation waits is never overwritten; Ctrl-C at the prompt sends nothing. Without tmux this fails, it never skips.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService, type TestService } from './helpers/service.js';
import { assertBuilt, BIN_PATH } from './helpers/cli.js';
import { openTerminal, shellEnvFor, type Terminal } from './helpers/terminal.js';
import { editWhileChangedElsewhere, scriptedEditor, type EditorStep } from './helpers/scripted-editor.js';

let svc: TestService;
let tmp: string;
let env: Record<string, string>;
let numberId: string;
const open: Terminal[] = [];

beforeAll(async () => {
  assertBuilt();
  svc = await startTestService();
  tmp = mkdtempSync(join(tmpdir(), 'svc-routes-term-'));
  const editor = join(tmp, 'editor.mjs');
  writeFileSync(
    editor,
    "import { readFileSync, writeFileSync } from 'node:fs';\nconst f = process.argv[2];\nwriteFileSync(f, readFileSync(f, 'utf8').replace(/^ringMode: simultaneous$/m, 'ringMode: sequential'));\n",
  );
  env = { ...shellEnvFor(svc, tmp, BIN_PATH), PS1: 'READY$ ', EDITOR: `${process.execPath} ${editor}` };
  const key = svc.bootstrap.testKey;
  const found = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '212', limit: 1 }, key });
  const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber }, key });
  expect(bought.status).toBe(201);
  numberId = bought.body.id;
  const put = await svc.call('PUT', `/v1/numbers/${numberId}/route`, { body: { destinationType: 'pstn', destination: '+14155550101' }, key });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  for (const t of open) t.close();
  await svc?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** A route with stages, so an edit can put one out of bounds. */
const STAGED = {
  ringMode: 'staged',
  voicemailEnabled: true,
  voicemailGreeting: 'Leave a message',
  destinations: [
    { destinationType: 'pstn', destination: '+14155550101', label: 'Front desk', stage: 0, ringTimeoutSecs: 20 },
    { destinationType: 'pstn', destination: '+14155550102', label: 'Back office', stage: 1 },
  ],
};

async function numberWithRoute(body: unknown): Promise<string> {
  const key = svc.bootstrap.testKey;
  const found = await svc.call('POST', '/v1/numbers/search', { body: { areaCode: '212', limit: 1 }, key });
  expect(found.body.data.length).toBeGreaterThan(0);
  const bought = await svc.call('POST', '/v1/numbers/buy', { body: { phoneNumber: found.body.data[0].phoneNumber }, key });
  expect(bought.status).toBe(201);
  const put = await svc.call('PUT', `/v1/numbers/${bought.body.id}/route`, { body, key });
  expect(put.status).toBe(200);
  return bought.body.id as string;
}

const routeOf = async (id: string) => {
  const res = await svc.call('GET', `/v1/numbers/${id}/route`, { key: svc.bootstrap.testKey });
  expect(res.status).toBe(200);
  return res.body.route;
};

/** A shell at a fresh terminal whose $EDITOR is `editor` (and `extra` in its environment), at its prompt. */
async function shellWith(editor: string, extra: Record<string, string> = {}): Promise<Terminal> {
  const t = openTerminal(['bash', '--norc', '--noprofile'], { env: { ...env, ...extra, EDITOR: editor } });
  open.push(t);
  await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
  return t;
}

/** Runs `svc routes edit ID` at the prompt; the shell then prints the exit status as `EXIT=n`. */
function typeEdit(t: Terminal, id: string): void {
  t.type(`svc routes edit ${id}; echo "EXIT=$?"`);
  t.press('Enter');
}

const exitStatus = (screen: string): number | undefined => {
  const m = /^EXIT=(\d+)$/m.exec(screen);
  return m ? Number(m[1]) : undefined;
};

describe('routes edit at a terminal', () => {
  it('shows the change, asks to confirm, sends it and prints the saved route', async () => {
    const t = openTerminal(['bash', '--norc', '--noprofile'], { env });
    open.push(t);
    await t.until((s) => /READY\$ $/.test(s), 10_000, 'a shell prompt');
    t.type(`svc routes edit ${numberId}`);
    t.press('Enter');
    const asked = await t.until((s) => s.includes('Apply this change to the route of'), 15_000, 'the confirmation');
    expect(asked).toContain('~ ringMode: "simultaneous" → "sequential"');
    expect(asked).toContain('0 to add, 1 to change, 0 to remove');
    t.type('y');
    t.press('Enter');
    const done = await t.until((s) => /ring mode\s+sequential/.test(s) && /READY\$ $/.test(s), 15_000, 'the saved route');
    expect(done).toContain(`Call route of ${numberId}`);
    const route = (await svc.call('GET', `/v1/numbers/${numberId}/route`, { key: svc.bootstrap.testKey })).body.route;
    expect(route.ringMode).toBe('sequential');
  });

  it('an invalid edit re-opens the editor with the errors, naming the lines of that file; the fix is confirmed at the prompt, with no stale error above the plan, and saved', async () => {
    const id = await numberWithRoute(STAGED);
    const steps: EditorStep[] = [
      // Session 1: a stage out of bounds (0-4), typed by the person at the editor.
      (text) => text.replace('stage: 1', 'stage: 9'),
      // Session 2: the person reads the errors (the test checks the screen meanwhile), then fixes.
      async (text, _env, terminal) => {
        await terminal.ask('[editor session 2: press Enter to save] ');
        return text.replace('stage: 9', 'stage: 2');
      },
    ];
    const ed = scriptedEditor(tmp, steps);
    const t = await shellWith(ed.editor);
    typeEdit(t, id);

    // The editor re-opened, with the errors in the file (they are not printed behind it).
    const reopened = await t.until((s) => s.includes('[editor session 2: press Enter to save]'), 15_000, 'the editor re-opened');
    expect(reopened).not.toMatch(/error: line \d+/);
    expect(ed.runs()).toBe(2);
    // What the second session was given: the errors at the top and above the offending line.
    const second = ed.seen(1).split('\n');
    expect(second[0]).toMatch(/^# error: not sent: 1 problem/);
    const named = /^# error: {3}line (\d+): destinations\[1\]\.stage: /.exec(second[1]!);
    expect(named, second[1]).not.toBeNull();
    const at = second.findIndex((l) => /^\s+stage: 9$/.test(l));
    expect(at).toBeGreaterThan(1);
    // The line the top names is the offending line of this file, as the editor numbers it.
    expect(Number(named![1])).toBe(at + 1);
    expect(second[at - 1]).toMatch(/^\s+# error: destinations\[1\]\.stage: /);
    expect(ed.seen(0)).not.toContain('# error: ');

    t.press('Enter');
    const asked = await t.until((s) => s.includes('Apply this change to the route of'), 15_000, 'the confirmation');
    expect(asked).toMatch(/~ .*stage: 1 → 2/);
    // Nothing stale above the plan: the problems were fixed.
    expect(asked).not.toContain('error:');
    expect(asked).toContain('0 to add, 1 to change, 0 to remove');
    expect(exitStatus(asked)).toBeUndefined();
    t.type('y');
    t.press('Enter');
    const done = await t.until((s) => exitStatus(s) !== undefined, 15_000, 'the command to end');
    expect(exitStatus(done), done).toBe(0);
    expect(done).toContain(`Call route of ${id}`);
    expect(done).toContain('Back office');
    const route = await routeOf(id);
    expect(route.destinations.map((d: { stage: number }) => d.stage)).toEqual([0, 2]);
  });

  it('giving up on an invalid edit (saved unchanged) says the problems once, by the lines of the kept file', async () => {
    const id = await numberWithRoute(STAGED);
    const ed = scriptedEditor(tmp, [(text) => text.replace('stage: 1', 'stage: 9'), (text) => text]);
    const t = await shellWith(ed.editor);
    typeEdit(t, id);
    const done = await t.until((s) => exitStatus(s) !== undefined, 15_000, 'the command to end');
    expect(exitStatus(done), done).not.toBe(0);
    expect(done).toContain('gave up; nothing was sent');
    expect(done.match(/line \d+: destinations\[1\]\.stage: /g)).toHaveLength(1);
    const kept = new RegExp(`svc routes apply ${id} -f (\\S+?\\.yaml)`).exec(done)?.[1];
    expect(kept, done).toBeDefined();
    const line = Number(/line (\d+): destinations/.exec(done)![1]);
    expect(readFileSync(kept!, 'utf8').split('\n')[line - 1]).toMatch(/^\s+stage: 9$/);
    expect((await routeOf(id)).destinations[1].stage).toBe(1);
    rmSync(join(kept!, '..'), { recursive: true, force: true });
  });

  it('a change made on the service while the editor is open is said and is the base of the plan; confirming saves the edit', async () => {
    const id = await numberWithRoute(STAGED);
    // Someone else changes the greeting and the ring mode through the API while the person, in the
    // editor, rewrites the greeting of the route as it was read.
    const ed = scriptedEditor(tmp, [editWhileChangedElsewhere]);
    const t = await shellWith(ed.editor, {
      EDIT_NUMBER: id,
      OTHER_ROUTE: JSON.stringify({ ...STAGED, ringMode: 'sequential', voicemailGreeting: 'Changed elsewhere' }),
      EDIT_FROM: 'Leave a message',
      EDIT_TO: 'We will call you back',
    });
    typeEdit(t, id);

    const asked = await t.until((s) => s.includes('Apply this change to the route of'), 15_000, 'the confirmation');
    expect(ed.seen(0)).toContain('Leave a message');
    expect(asked).toContain(`the route of ${id} changed on the service while you were editing; the plan below is against the route saved now`);
    // The plan is against the route saved now: the other change is its base, and what the file does
    // not match of it (the ring mode) shows as undone, before anyone says yes.
    expect(asked).toContain('~ voicemailGreeting: "Changed elsewhere" → "We will call you back"');
    expect(asked).toContain('~ ringMode: "sequential" → "staged"');
    expect(asked).not.toContain('"Leave a message" →');
    expect(asked).toContain('0 to add, 2 to change, 0 to remove');
    expect(exitStatus(asked)).toBeUndefined();
    t.type('y');
    t.press('Enter');
    const done = await t.until((s) => exitStatus(s) !== undefined, 15_000, 'the command to end');
    expect(exitStatus(done), done).toBe(0);
    expect(done).toContain(`Call route of ${id}`);
    const route = await routeOf(id);
    expect(route.voicemailGreeting).toBe('We will call you back');
    expect(route.ringMode).toBe('staged');
  });

  it('a change made on the service while the confirmation waits is never overwritten: conflict, exit 5, the edit kept', async () => {
    const id = await numberWithRoute(STAGED);
    const ed = scriptedEditor(tmp, [(text) => text.replace('Leave a message', 'We will call you back')]);
    const t = await shellWith(ed.editor);
    typeEdit(t, id);
    const asked = await t.until((s) => s.includes('Apply this change to the route of'), 15_000, 'the confirmation');
    expect(asked).toContain('"Leave a message" → "We will call you back"');
    expect(asked).not.toContain('changed on the service while you were editing');

    // Someone else changes the route through the API after the plan was shown.
    const other = await svc.call('PUT', `/v1/numbers/${id}/route`, {
      body: { ...STAGED, voicemailGreeting: 'Changed elsewhere' },
      key: svc.bootstrap.testKey,
    });
    expect(other.status).toBe(200);

    t.type('y');
    t.press('Enter');
    const done = await t.until((s) => exitStatus(s) !== undefined, 15_000, 'the command to end');
    // cli.md: `5` conflict.
    expect(exitStatus(done), done).toBe(5);
    expect(done).toContain('conflict');
    expect(done).toContain('changed on the service since the plan was shown; nothing was overwritten');
    const kept = /svc routes apply \S+ -f (\S+?\.yaml)/.exec(done)?.[1];
    expect(kept, done).toBeDefined();
    expect(readFileSync(kept!, 'utf8')).toContain('We will call you back');
    expect(readFileSync(kept!, 'utf8')).not.toContain('# error: ');
    expect((await routeOf(id)).voicemailGreeting).toBe('Changed elsewhere');
    rmSync(join(kept!, '..'), { recursive: true, force: true });
  });

  it('Ctrl-C at the confirmation sends nothing: exit 130, the route unchanged, the edit kept', async () => {
    const id = await numberWithRoute(STAGED);
    const before = await routeOf(id);
    const ed = scriptedEditor(tmp, [(text) => text.replace('ringMode: staged', 'ringMode: sequential')]);
    const t = await shellWith(ed.editor);
    typeEdit(t, id);
    const asked = await t.until((s) => s.includes('Apply this change to the route of'), 15_000, 'the confirmation');
    expect(asked).toContain('~ ringMode: "staged" → "sequential"');
    t.press('C-c');
    const done = await t.until((s) => exitStatus(s) !== undefined, 15_000, 'the command to end');
    // cli.md: `130` interrupted.
    expect(exitStatus(done), done).toBe(130);
    expect(done).not.toContain(`Call route of ${id}`);
    expect(await routeOf(id)).toEqual(before);
    // Giving up keeps the edited text where the printed apply command finds it.
    expect(done).toContain('cancelled; nothing was sent');
    const kept = new RegExp(`svc routes apply ${id} -f (\\S+?\\.yaml)`).exec(done)?.[1];
    expect(kept, done).toBeDefined();
    expect(readFileSync(kept!, 'utf8')).toContain('ringMode: sequential');
    rmSync(join(kept!, '..'), { recursive: true, force: true });
  });
});
