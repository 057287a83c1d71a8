// cli.md "Calls as tests": the test file's shape, checked whole before anything is sent. Read by
// `svc calls test` and svc/testing's `calls.test` alike, from a file's text or the same document as
// an object. Every problem is named by its line (the yaml library's positions; none for an object)
// and its place in the file (`tests[2].expect.status`); a key the format does not have is refused,
// never ignored. Loads yaml: only what runs tests imports it.
import { Document, isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair, type YAMLMap } from 'yaml';
import { E164_PATTERN } from '../api/values/phone.js';
import { CALL_EVALUATION, CALL_MISSED_OUTCOMES, CALL_TRACE_STEPS, PRESS_PATTERN, SANDBOX_CALL_LIMITS } from '../api/values/calls.js';
import { durationSecs } from '../api/values/duration.js';

/** The final statuses a test may expect (cli.md). */
export const EXPECTED_STATUSES = ['completed', 'missed', 'blocked', 'failed'] as const;

/** A step the trace must show, in order: a step of that name whose detail contains `detail`. */
export interface ExpectedStep {
  /** As written (`ivr.key 1`), for the failure line. */
  text: string;
  step: string;
  detail: string;
}

export interface CallTest {
  name: string;
  /** The line the test starts on. */
  line: number;
  from?: string;
  press: string[];
  answer: Record<string, number>;
  decision?: { status: number; body?: unknown } | { timeout: true };
  hangupAfterSecs?: number;
  expect: { status?: string; outcome?: string; answeredBy?: string; trace: ExpectedStep[] };
}

/** The route to test instead of the saved route: a document's path as written (relative to the test file), or the document inline. */
export type TestRoute = { path: string; line: number } | { inline: Record<string, unknown>; line: number };

export interface CallTestFile {
  number: string;
  numberLine: number;
  route?: TestRoute;
  tests: CallTest[];
}

export interface FileProblem {
  line?: number;
  /** Where in the file (`tests[0].press[1]`), or `(yaml)` for a syntax error. */
  path: string;
  message: string;
}

export type ParsedTestFile = { ok: true; file: CallTestFile } | { ok: false; problems: FileProblem[] };

const TOP_KEYS = ['number', 'route', 'tests'];
const TEST_KEYS = ['name', 'from', 'press', 'answer', 'decision', 'hangupAfter', 'expect'];
const EXPECT_KEYS = ['status', 'outcome', 'answeredBy', 'trace'];
const STEPS = new Set<string>(CALL_TRACE_STEPS);

/** Reads YAML nodes, noting each problem with the line of the node at fault. */
class Reader {
  readonly problems: FileProblem[] = [];
  constructor(private readonly lines: LineCounter) {}

  line(node: Node | null | undefined): number | undefined {
    const range = node?.range;
    return range ? this.lines.linePos(range[0]).line : undefined;
  }

  bad(node: Node | null | undefined, path: string, message: string): void {
    this.problems.push({ line: this.line(node), path, message });
  }

  /** A mapping's pairs by key; a key it does not know is a problem naming its line. */
  map(node: unknown, path: string, what: string, allowed: readonly string[]): Map<string, Pair<Node, Node | null>> | undefined {
    if (!isMap(node)) {
      this.bad(node as Node, path, `must be a mapping (${allowed.join(', ')})`);
      return undefined;
    }
    const out = new Map<string, Pair<Node, Node | null>>();
    for (const pair of (node as YAMLMap<Node, Node | null>).items) {
      const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
      if (!allowed.includes(key)) this.bad(pair.key, join(path, key), `is not a key of ${what} (${allowed.join(', ')})`);
      else out.set(key, pair);
    }
    return out;
  }

  string(node: Node | null | undefined, path: string, hint = ''): string | undefined {
    if (isScalar(node) && typeof node.value === 'string') return node.value;
    this.bad(node, path, `must be a string${hint}`);
    return undefined;
  }

  /** A duration (`5s`, `1m30s`, or a number of seconds), within a sandbox call's bounds. */
  seconds(node: Node | null | undefined, path: string): number | undefined {
    const value = isScalar(node) ? node.value : undefined;
    let secs: number | undefined;
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) secs = value;
    else if (typeof value === 'string') secs = durationSecs(value);
    if (secs === undefined) return void this.bad(node, path, 'must be a duration like 5s, 2m or 1m30s');
    if (secs > SANDBOX_CALL_LIMITS.maxSecs) return void this.bad(node, path, `must be at most ${SANDBOX_CALL_LIMITS.maxSecs / 3600}h`);
    return secs;
  }
}

const join = (path: string, key: string | number) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key);

/**
 * Parses a test file's text, or the same document as an object; `problems` lists every problem, each
 * with its line when known. `fromFile` is false for a document that was not read from a file (text on
 * standard input, an object): a `route: FILE` then has nothing to be relative to and is refused.
 */
export function parseTestFile(source: string | object, fromFile = true): ParsedTestFile {
  const lines = new LineCounter();
  const doc = typeof source === 'string' ? parseDocument(source, { lineCounter: lines }) : new Document(source);
  if (doc.errors.length) {
    return { ok: false, problems: doc.errors.map((e) => ({ line: e.linePos?.[0]?.line, path: '(yaml)', message: e.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '') })) };
  }
  const r = new Reader(lines);
  if (doc.contents === null) return { ok: false, problems: [{ path: '(document)', message: 'empty: give number and tests' }] };
  const top = r.map(doc.contents, '', 'a test file', TOP_KEYS);
  if (!top) return { ok: false, problems: r.problems };

  const numberPair = top.get('number');
  let number: string | undefined;
  if (!numberPair) r.bad(doc.contents, 'number', "is required: one of the account's numbers (id or E.164)");
  else {
    // `+14155550100` unquoted is a YAML number: its `+` is gone, so say how to write it.
    number = r.string(numberPair.value, 'number', ' (quote an E.164 number: "+14155550100")');
    if (number !== undefined && number.startsWith('+') && !E164_PATTERN.test(number)) r.bad(numberPair.value, 'number', 'is not an E.164 phone number like +14155550123');
  }
  const routePair = top.get('route');
  const route = routePair ? readRoute(r, routePair.value, fromFile) : undefined;

  const tests: CallTest[] = [];
  const testsPair = top.get('tests');
  if (!testsPair || !isSeq(testsPair.value) || testsPair.value.items.length === 0) {
    r.bad(testsPair?.value ?? doc.contents, 'tests', 'must be a non-empty list of tests');
  } else {
    testsPair.value.items.forEach((node, i) => {
      const test = readTest(r, node as Node, `tests[${i}]`, i);
      if (test) tests.push(test);
    });
  }
  if (r.problems.length || number === undefined) return { ok: false, problems: r.problems };
  return {
    ok: true,
    file: {
      number,
      numberLine: r.line(numberPair!.value) ?? 1,
      ...(route !== undefined ? { route: { ...route, line: r.line(routePair!.value) ?? 1 } } : {}),
      tests,
    },
  };
}

/** `route: FILE` (relative to the test file), or the route document itself as a mapping. */
function readRoute(r: Reader, node: Node | null, fromFile: boolean): { path: string } | { inline: Record<string, unknown> } | undefined {
  if (isMap(node)) return { inline: node.toJSON() as Record<string, unknown> };
  const path = r.string(node, 'route', ": the route document's path, relative to this file, or the document inline as a mapping");
  if (path === undefined) return undefined;
  if (!fromFile) {
    return void r.bad(node, 'route', `names a file (${path}), but this test document was not read from a file, so there is nothing to find it relative to: give the route inline as a mapping (as routes get -o yaml writes it)`);
  }
  return { path };
}

function readTest(r: Reader, node: Node, at: string, index: number): CallTest | undefined {
  const t = r.map(node, at, 'a test', TEST_KEYS);
  if (!t) return undefined;
  const test: CallTest = { name: `test ${index + 1}`, line: r.line(node) ?? 1, press: [], answer: {}, expect: { trace: [] } };
  const v = (key: string) => t.get(key)?.value;
  if (t.has('name')) test.name = r.string(v('name'), join(at, 'name')) ?? test.name;
  if (t.has('from')) {
    const from = r.string(v('from'), join(at, 'from'), ' (quote an E.164 number: "+14155550123")');
    if (from !== undefined && !E164_PATTERN.test(from)) r.bad(v('from'), join(at, 'from'), 'is not an E.164 phone number like +14155550123');
    else if (from !== undefined) test.from = from;
  }
  if (t.has('press')) {
    const press = v('press');
    if (!isSeq(press)) r.bad(press, join(at, 'press'), 'must be a list: the key pressed at each prompt ("" stays silent)');
    else if (press.items.length > CALL_EVALUATION.maxPresses) r.bad(press, join(at, 'press'), `must have at most ${CALL_EVALUATION.maxPresses} entries`);
    else
      press.items.forEach((item, j) => {
        const value = isScalar(item) ? item.value : undefined;
        // `press: [1]` is the number 1: the key it names.
        const key = typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 9 ? String(value) : value === null ? '' : value;
        if (typeof key !== 'string' || !PRESS_PATTERN.test(key)) r.bad(item as Node, join(join(at, 'press'), j), 'must be one key (0-9, * or #), or "" to stay silent');
        else test.press.push(key);
      });
  }
  if (t.has('answer')) {
    const answer = v('answer');
    if (!isMap(answer)) r.bad(answer, join(at, 'answer'), 'must be a mapping: who picks up (E.164, device id or label) → after how long ("+14155550198": 5s)');
    else if (answer.items.length > CALL_EVALUATION.maxPickups) r.bad(answer, join(at, 'answer'), `must name at most ${CALL_EVALUATION.maxPickups} parties`);
    else
      for (const pair of answer.items as Array<Pair<Node, Node | null>>) {
        const who = isScalar(pair.key) ? pair.key.value : undefined;
        const path = join(join(at, 'answer'), String(who));
        if (typeof who !== 'string' || who === '') {
          r.bad(pair.key, path, 'must be a destination (quote an E.164 number: "+14155550198"), a device id or a label');
          continue;
        }
        const secs = r.seconds(pair.value, path);
        if (secs !== undefined) test.answer[who] = secs;
      }
  }
  if (t.has('decision')) {
    const decision = v('decision');
    const d = r.map(decision, join(at, 'decision'), 'a decision', ['status', 'body', 'timeout']);
    if (d) {
      if (d.has('timeout')) {
        const timeout = d.get('timeout')!.value;
        if (!isScalar(timeout) || timeout.value !== true) r.bad(timeout, join(at, 'decision.timeout'), 'must be true (the webhook does not answer)');
        else if (d.has('status') || d.has('body')) r.bad(decision, join(at, 'decision'), 'give {timeout: true} or {status, body}, not both');
        else test.decision = { timeout: true };
      } else {
        const status = d.get('status')?.value;
        const code = isScalar(status) ? status.value : undefined;
        if (typeof code !== 'number' || !Number.isInteger(code) || code < 100 || code > 599) r.bad(status ?? decision, join(at, 'decision.status'), 'must be an HTTP status (100-599)');
        else test.decision = { status: code, ...(d.has('body') ? { body: (d.get('body')!.value as Node | null)?.toJSON() ?? null } : {}) };
      }
    }
  }
  if (t.has('hangupAfter')) {
    const secs = r.seconds(v('hangupAfter'), join(at, 'hangupAfter'));
    if (secs !== undefined) test.hangupAfterSecs = secs;
  }
  if (t.has('expect')) {
    const e = r.map(v('expect'), join(at, 'expect'), 'expect', EXPECT_KEYS);
    if (e) {
      const one = (key: 'status' | 'outcome', allowed: readonly string[]) => {
        if (!e.has(key)) return;
        const value = r.string(e.get(key)!.value, join(at, `expect.${key}`));
        if (value !== undefined && !allowed.includes(value)) r.bad(e.get(key)!.value, join(at, `expect.${key}`), `must be one of ${allowed.join(', ')}`);
        else if (value !== undefined) test.expect[key] = value;
      };
      one('status', EXPECTED_STATUSES);
      one('outcome', CALL_MISSED_OUTCOMES);
      if (e.has('answeredBy')) {
        const by = r.string(e.get('answeredBy')!.value, join(at, 'expect.answeredBy'), ' (quote an E.164 number: "+14155550198")');
        if (by !== undefined) test.expect.answeredBy = by;
      }
      if (e.has('trace')) {
        const trace = e.get('trace')!.value;
        if (!isSeq(trace)) r.bad(trace, join(at, 'expect.trace'), 'must be a list of steps ("ivr.key 1": a step, then text its detail contains)');
        else
          trace.items.forEach((item, j) => {
            const path = join(join(at, 'expect.trace'), j);
            const text = r.string(item as Node, path);
            if (text === undefined) return;
            const [step = '', ...rest] = text.trim().split(/\s+/);
            if (!STEPS.has(step)) return void r.bad(item as Node, path, `"${step}" is not a step of the call trace (${CALL_TRACE_STEPS.join(', ')})`);
            test.expect.trace.push({ text: text.trim(), step, detail: text.trim().slice(step.length).trim() });
          });
      }
    }
  }
  return test;
}

/** `FILE:12: tests[0].press[1]: must be …` */
export const fileProblemLine = (file: string, p: FileProblem): string => `${file}:${p.line !== undefined ? `${p.line}:` : ''} ${p.path}: ${p.message}`;
