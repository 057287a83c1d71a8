// cli.md "Calls as tests": what a run of a test document does, for `svc calls test` and svc/testing's
// `calls.test` alike. Each test is one evaluation, sent in batches (POST /v1/sandbox/calls/evaluate-batch,
// by the caller's own HTTP client through `send`); its expectations are checked against its answer;
// the document's coverage is the union of its tests' branches, kept as the number's last run.
import { setTimeout as delay } from 'node:timers/promises';
import type { CallCoverageBody, CallEvaluation, CallEvaluationBatchInput, CallEvaluationInput } from '../api/schemas/call-tests.js';
import type { PutRouteInput } from '../api/schemas/routes.js';
import { CALL_EVALUATION, coveragePercent } from '../api/values/calls.js';
import type { CallTest, CallTestFile } from './file.js';

export interface TestOutcome {
  test: CallTest;
  result: CallEvaluation;
  /** Why it failed (the first expectation that does not hold), or null. */
  failure: string | null;
}

export interface FileCoverage {
  covered: number;
  total: number;
  percent: number;
  uncovered: string[];
  branches: Array<{ id: string; taken: boolean }>;
}

/** One batch's answers with its response headers (their RateLimit fields pace the run). */
export interface Evaluated {
  data: CallEvaluation[];
  headers: Record<string, string | string[] | undefined>;
}

/** A refusal's detail, its path as a single evaluation of the test names it (`["body","digits",0]`). */
export interface RefusalDetail {
  path?: unknown[];
  message?: string;
}

const shown = (v: string | null | undefined) => v ?? 'none';

/** The first expectation of the test the evaluated call does not meet, or null. */
export function failureOf(test: CallTest, result: CallEvaluation): string | null {
  const e = test.expect;
  if (e.status !== undefined && e.status !== result.status) return `expected status ${e.status}, got ${result.status}`;
  if (e.outcome !== undefined && e.outcome !== result.outcome) return `expected outcome ${e.outcome}, got ${shown(result.outcome)}`;
  if (e.answeredBy !== undefined && e.answeredBy !== result.answeredBy) return `expected answeredBy ${e.answeredBy}, got ${result.answeredBy ?? 'nobody'}`;
  // cli.md: in this order, not necessarily adjacent; a step of that name whose detail contains the rest.
  let at = 0;
  for (const want of e.trace) {
    const found = result.trace.findIndex((t, i) => i >= at && t.step === want.step && t.detail.includes(want.detail));
    if (found === -1) return `expected step not found: ${want.text}`;
    at = found + 1;
  }
  return null;
}

/** The union over a file's tests: a branch is covered when any test took it (graph order kept). */
export function coverageOf(results: readonly CallEvaluation[]): FileCoverage {
  const taken = new Map<string, boolean>();
  for (const r of results) for (const b of r.branches) taken.set(b.id, (taken.get(b.id) ?? false) || b.taken);
  const branches = [...taken].map(([id, t]) => ({ id, taken: t }));
  const covered = branches.filter((b) => b.taken).length;
  return { covered, total: branches.length, percent: coveragePercent(covered, branches.length), uncovered: branches.filter((b) => !b.taken).map((b) => b.id), branches };
}

/** Whether a file's coverage reaches `min` percent (the exact fraction, not the rounded figure). */
export const meetsMinimum = (c: FileCoverage, min: number): boolean => (c.total === 0 ? true : c.covered * 100 >= min * c.total);

/** The evaluation a test asks for: the file's number, the route under test (if any), the test's script. */
export const evaluationBody = (spec: CallTestFile, route: PutRouteInput | undefined, t: CallTest): CallEvaluationInput => ({
  numberId: spec.number,
  ...(route ? { route } : {}),
  ...(t.from !== undefined ? { from: t.from } : {}),
  digits: t.press,
  answer: t.answer,
  ...(t.decision !== undefined ? { decision: t.decision } : {}),
  ...(t.hangupAfterSecs !== undefined ? { hangupAfterSecs: t.hangupAfterSecs } : {}),
});

/**
 * How many batches are in flight at once: enough to keep the service busy across the round trips,
 * few enough to pace by the key's rate limit (contract §2) without a burst of 429s.
 */
const IN_FLIGHT = 8;

interface Batch {
  /** The tests' indices, in the order of the batch's calls. */
  indices: number[];
  body: CallEvaluationBatchInput;
}

/** The tests grouped per target (the number and the route under test), at most maxBatch to a request, in order. */
function batchesOf(bodies: readonly CallEvaluationInput[]): Batch[] {
  const open = new Map<string, Batch>();
  const batches: Batch[] = [];
  bodies.forEach(({ numberId, route, ...call }, i) => {
    const target = JSON.stringify([numberId ?? null, route ?? null]);
    let batch = open.get(target);
    if (!batch || batch.indices.length >= CALL_EVALUATION.maxBatch) {
      batch = { indices: [], body: { ...(numberId !== undefined ? { numberId } : {}), ...(route !== undefined ? { route } : {}), calls: [] } };
      open.set(target, batch);
      batches.push(batch);
    }
    batch.indices.push(i);
    batch.body.calls.push(call);
  });
  return batches;
}

/**
 * A batch's refusal as a single evaluation of the test it names would have answered it: the test (a
 * detail on `["body","calls",k,…]` names the batch's k-th; otherwise its first) and the details on
 * that test or the target, `calls` and k taken out of their paths.
 */
function refusalOf(err: unknown, indices: readonly number[]): { index: number; details: RefusalDetail[] } {
  const raw = (err as { details?: unknown } | null)?.details;
  const all = Array.isArray(raw) ? (raw as RefusalDetail[]) : [];
  const callOf = (d: RefusalDetail) => (d.path?.[0] === 'body' && d.path[1] === 'calls' && typeof d.path[2] === 'number' ? d.path[2] : undefined);
  const k = all.map(callOf).find((c) => c !== undefined);
  const details = all.flatMap((d) => {
    const c = callOf(d);
    if (c === undefined) return [d];
    return c === k ? [{ ...d, path: ['body', ...d.path!.slice(3)] }] : [];
  });
  return { index: indices[k ?? 0] ?? 0, details };
}

/**
 * Evaluates the tests' bodies in batches, IN_FLIGHT at a time, answers in the tests' order; paced by
 * the key's rate limit. The first refusal stops the run and is thrown as `explain` words it (with
 * the test's index and the details as a single evaluation of it would name them).
 */
export async function evaluateTests(
  bodies: readonly CallEvaluationInput[],
  send: (batch: CallEvaluationBatchInput) => Promise<Evaluated>,
  explain: (err: unknown, index: number, details: RefusalDetail[]) => unknown = (err) => err,
): Promise<CallEvaluation[]> {
  const results: CallEvaluation[] = new Array(bodies.length);
  const batches = batchesOf(bodies);
  let next = 0;
  let failed = false;
  let resumeAt = 0;
  const worker = async () => {
    while (!failed && next < batches.length) {
      const batch = batches[next++]!;
      const wait = resumeAt - Date.now();
      if (wait > 0) await delay(wait);
      let res: Evaluated;
      try {
        res = await send(batch.body);
      } catch (err) {
        failed = true;
        const refusal = refusalOf(err, batch.indices);
        throw explain(err, refusal.index, refusal.details);
      }
      batch.indices.forEach((testIndex, k) => (results[testIndex] = res.data[k]!));
      resumeAt = Math.max(resumeAt, Date.now() + pauseFor(res.headers));
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, batches.length) }, worker));
  return results;
}

const header = (h: Evaluated['headers'], name: string): number => {
  const v = h[name];
  return Number(Array.isArray(v) ? v[0] : v);
};

/**
 * contract §2: the RateLimit headers. When fewer requests remain in the bucket than are in flight,
 * wait for the bucket to hold them again (its refill rate read from how long it takes to fill up),
 * rather than run into 429s whose Retry-After would stall each request a whole second.
 */
function pauseFor(h: Evaluated['headers']): number {
  const remaining = header(h, 'ratelimit-remaining');
  if (!Number.isFinite(remaining) || remaining >= IN_FLIGHT) return 0;
  const limit = header(h, 'ratelimit-limit');
  const reset = header(h, 'ratelimit-reset');
  const perSec = Number.isFinite(limit) && Number.isFinite(reset) && reset > 0 ? (limit - remaining) / reset : 0;
  return perSec > 0 ? Math.ceil((1000 * (IN_FLIGHT - remaining)) / perSec) : 1000;
}

/** Each test with its answer and whether it met its expectations. */
export const outcomesOf = (tests: readonly CallTest[], results: readonly CallEvaluation[]): TestOutcome[] =>
  tests.map((test, i) => ({ test, result: results[i]!, failure: failureOf(test, results[i]!) }));

/** cli.md `--reporter json`: `{tests: [{name, passed, failure, trace}], coverage: {covered, total, percent, uncovered}}`. */
export const reportOf = (outcomes: readonly TestOutcome[], c: FileCoverage) => ({
  tests: outcomes.map((o) => ({ name: o.test.name, passed: o.failure === null, failure: o.failure, trace: o.result.trace })),
  coverage: { covered: c.covered, total: c.total, percent: c.percent, uncovered: c.uncovered },
});

/** The run as kept for the console (PUT /v1/sandbox/numbers/{id}/call-coverage): `file` when a route document was tested instead of the saved one. */
export const keptCoverage = (outcomes: readonly TestOutcome[], c: FileCoverage, routeTested: boolean): CallCoverageBody => ({
  source: routeTested ? 'file' : 'saved',
  tests: outcomes.length,
  passed: outcomes.filter((o) => o.failure === null).length,
  branches: c.branches,
});
