// A $EDITOR that is a script: session n applies steps[n] to the file it is given and keeps a copy of
// what it was shown, so a test can assert what each editor session saw (the errors of a re-open).
// At a real terminal a step can also stop and wait for a line typed there (`ask`), standing in for
// the person at the editor: the test acts on the service meanwhile, then presses Enter to "save".
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a step may use: it is serialised into the script, so only its arguments, no closure. */
export interface EditorTerminal {
  /** Writes `question` to the terminal and resolves with the next line typed there. */
  ask(question: string): Promise<string>;
}

/** Returns the new text, or undefined to save the file unchanged. */
export type EditorStep = (
  text: string,
  env: Record<string, string | undefined>,
  terminal: EditorTerminal,
) => string | undefined | Promise<string | undefined>;

export interface ScriptedEditor {
  /** The $EDITOR value (through the shell, as the CLI runs it). */
  editor: string;
  /** The text editor session n (0-based) was given. Throws when there was no such session. */
  seen(n: number): string;
  /** How many sessions ran. */
  runs(): number;
}

export function scriptedEditor(tmp: string, steps: EditorStep[]): ScriptedEditor {
  const dir = mkdtempSync(join(tmp, 'editor-'));
  const script = join(dir, 'editor.mjs');
  writeFileSync(
    script,
    `import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const file = process.argv[2];
const dir = ${JSON.stringify(dir)};
const n = existsSync(dir + '/count') ? Number(readFileSync(dir + '/count', 'utf8')) : 0;
writeFileSync(dir + '/count', String(n + 1));
const text = readFileSync(file, 'utf8');
writeFileSync(dir + '/seen-' + n + '.yaml', text);
const terminal = {
  ask: (question) =>
    new Promise((resolve) => {
      const rl = createInterface({ input: process.stdin, output: process.stdout });
      rl.question(question, (answer) => {
        rl.close();
        resolve(answer);
      });
    }),
};
const steps = [${steps.map((s) => s.toString()).join(',\n')}];
if (!steps[n]) throw new Error('scripted editor: no step for session ' + n);
const out = await steps[n](text, process.env, terminal);
if (out !== undefined) writeFileSync(file, out);
`,
  );
  return {
    editor: `${JSON.stringify(process.execPath)} ${JSON.stringify(script)}`,
    seen: (n) => readFileSync(join(dir, `seen-${n}.yaml`), 'utf8'),
    runs: () => (existsSync(join(dir, 'count')) ? Number(readFileSync(join(dir, 'count'), 'utf8')) : 0),
  };
}

/**
 * A step for someone else changing the route through the API while the person edits: PUTs
 * env.OTHER_ROUTE (JSON) to the route of env.EDIT_NUMBER with env.SVC_API_KEY at env.SVC_BASE_URL,
 * then makes the person's own edit, env.EDIT_FROM replaced by env.EDIT_TO. Only its arguments are
 * used: it runs inside the editor script.
 */
export const editWhileChangedElsewhere: EditorStep = async (text, env) => {
  const res = await fetch(`${env.SVC_BASE_URL}/v1/numbers/${env.EDIT_NUMBER}/route`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${env.SVC_API_KEY}`, 'content-type': 'application/json' },
    body: env.OTHER_ROUTE,
  });
  if (res.status !== 200) throw new Error(`scripted editor: PUT ${res.status} ${await res.text()}`);
  if (!text.includes(env.EDIT_FROM!)) throw new Error(`scripted editor: ${env.EDIT_FROM} is not in the file`);
  return text.replace(env.EDIT_FROM!, env.EDIT_TO!);
};
