// `calls.test` (handle.ts): a call test document run as `svc calls test` runs it (cli.md "Calls as
// tests"): the format, the expectations and the coverage are src/call-tests', shared with the CLI;
// this module reads the file, speaks HTTP through the handle and throws what the CLI would print.
import { readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { pathOf } from '../api/resources/endpoint.js';
import { sandboxCallEndpoints } from '../api/resources/sandbox-calls.js';
import type { PutRouteInput } from '../api/schemas/routes.js';
import { fileProblemLine, parseTestFile, type CallTestFile } from '../call-tests/file.js';
import { coverageOf, evaluateTests, evaluationBody, keptCoverage, outcomesOf, reportOf, type RefusalDetail } from '../call-tests/run.js';
import type { RawRequest } from './http.js';
import type { CallTestDocument, CallTestReport } from './types.js';

const WHAT = 'calls.test';

export async function runCallTests(source: string | CallTestDocument, request: RawRequest): Promise<CallTestReport> {
  const shown = typeof source === 'string' ? source : 'the document';
  const { spec, route } = await load(source, shown);
  const results = await evaluateTests(
    spec.tests.map((t) => evaluationBody(spec, route, t)),
    async (batch) => {
      const res = await request(sandboxCallEndpoints.evaluateBatch.method, sandboxCallEndpoints.evaluateBatch.path, batch);
      if (res.status !== 200) throw new Refusal(res.status, res.body);
      return { data: res.body.data, headers: res.headers };
    },
    (err, i, details) => (err instanceof Refusal ? refused(shown, spec, i, err, details) : err),
  );
  const outcomes = outcomesOf(spec.tests, results);
  const coverage = coverageOf(results);
  // cli.md: the last run's coverage per number is kept for the console.
  const kept = await request(sandboxCallEndpoints.keepCoverage.method, pathOf(sandboxCallEndpoints.keepCoverage, { id: spec.number }), keptCoverage(outcomes, coverage, route !== undefined));
  if (kept.status !== 200) throw new Error(`${WHAT}: keeping the coverage of ${spec.number} answered ${kept.status}: ${JSON.stringify(kept.body)}`);
  return reportOf(outcomes, coverage);
}

/** The document checked whole (every problem at once, by line for a file), and the route under test. */
async function load(source: string | CallTestDocument, shown: string): Promise<{ spec: CallTestFile; route?: PutRouteInput }> {
  const parsed = typeof source === 'string' ? parseTestFile(await readFile(source, 'utf8')) : parseTestFile(source, false);
  if (!parsed.ok) throw new Error(`${WHAT}: not a valid test document:\n${parsed.problems.map((p) => `  ${fileProblemLine(shown, p)}`).join('\n')}`);
  const spec = parsed.file;
  if (!spec.route) return { spec };
  if ('inline' in spec.route) return { spec, route: spec.route.inline as PutRouteInput };
  // cli.md: the route document is relative to the test file; the service checks it as a PUT route.
  const path = resolve(dirname(source as string), spec.route.path);
  let route: unknown;
  try {
    route = parseYaml(await readFile(path, 'utf8'));
  } catch (err) {
    throw new Error(`${WHAT}: ${shown}:${spec.route.line}: route: cannot read ${path}: ${(err as Error).message.split('\n')[0]}`);
  }
  return { spec, route: route as PutRouteInput };
}

/** The service's answer to a batch it refused (its details are read by src/call-tests). */
class Refusal extends Error {
  readonly details: unknown;
  constructor(
    readonly status: number,
    readonly body: any,
  ) {
    super(`${WHAT}: refused (${status})`);
    this.details = body?.error?.details;
  }
}

/** A refusal of an evaluation, said where the document can be fixed: its number, its route or the test. */
function refused(shown: string, spec: CallTestFile, index: number, { status, body }: Refusal, details: readonly RefusalDetail[]): Error {
  const test = spec.tests[index]!;
  const where = (path: unknown[]): string => {
    const [, first, ...rest] = path;
    const tail = rest.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    if (first === 'route') return `route${tail}`;
    if (first === 'numberId') return 'number';
    return `tests[${index}] (${test.name})${first === undefined ? '' : ` ${String(first)}${tail}`}`;
  };
  const lines = details.map((d) => `  ${where(d.path ?? [])}: ${d.message ?? ''}`);
  const message = body?.error ? `${body.error.code}: ${body.error.message}` : JSON.stringify(body);
  return new Error(`${WHAT}: the service refused ${shown} (number ${spec.number}, ${status}): ${message}${lines.length ? `\n${lines.join('\n')}` : ''}`);
}
