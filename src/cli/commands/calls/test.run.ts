// svc calls test FILE… (cli.md "Calls as tests"): each test is one evaluation of the call engine
// (POST /v1/sandbox/calls/evaluate: nothing is stored, the same file gives the same traces); a
// file's coverage is the union of its tests' branches, kept as the number's last run (PUT
// /v1/sandbox/numbers/{id}/call-coverage) once the file has run. Every file is read and checked
// before anything is sent (exit 2 naming the file and line). The format, the expectations and the
// coverage are src/call-tests' (svc/testing runs the same); this module reads files and prints.
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import type { CliContext } from '../../context.js';
import { CliError, ExitStatus, UsageError } from '../../errors.js';
import { EXIT, exitCodeForApiError } from '../../exit-codes.js';
import { numberRef } from '../../phone-numbers.js';
import { readStdin } from '../../read-stdin.js';
import { ApiError } from '../../../api/client/errors.js';
import type { ApiClient } from '../../../api/client/client.js';
import { evaluateSandboxCalls, keepCallCoverage } from '../../../api/resources/sandbox-calls.js';
import type { CallEvaluation } from '../../../api/schemas/call-tests.js';
import type { PutRouteInput } from '../../../api/schemas/routes.js';
import { loadColors } from '../../../output/load-colors.js';
import { writeAndDrain } from '../../../output/io.js';
import { fileProblemLine, parseTestFile, type CallTestFile } from '../../../call-tests/file.js';
import { coverageOf, evaluateTests, evaluationBody, keptCoverage, meetsMinimum, outcomesOf, type RefusalDetail } from '../../../call-tests/run.js';
import { formatPath, lineForPath, parseRouteDocument, problemLine } from '../routes/document.js';
import { REPORTERS, type Reporter } from './test-flags.js';
import { jsonReport, junitReport, prettyReport, type FileRun } from './test-report.js';

/** The name standard input goes by on the command line, and in messages. */
const STDIN = '-';

export interface CallTestOptions {
  file: string[];
  minCoverage?: string;
  reporter?: Reporter;
}

/**
 * A test file read and checked, with the text its route is written in (service errors point into
 * it): the route document's, or the test file's own under `route` for a route given inline.
 */
interface LoadedFile {
  /** As named on the command line. */
  file: string;
  spec: CallTestFile;
  route?: { shown: string; text: string; at: readonly string[]; body: PutRouteInput };
}

export async function runCallTests(ctx: CliContext, opts: CallTestOptions): Promise<void> {
  const min = minCoverageOf(opts.minCoverage);
  const reporter = reporterOf(ctx, opts.reporter);
  const files = await loadAll(ctx, opts.file);
  // Evaluations change nothing: sent under --dry-run too (only the coverage PUT is held back).
  const reader = await ctx.readClient();
  const colors = await loadColors(ctx.io.colorEnabled);
  const runs: FileRun[] = [];
  for (const f of files) {
    const results = await evaluateFile(reader, f);
    const run: FileRun = { file: f.file, number: f.spec.number, outcomes: outcomesOf(f.spec.tests, results), coverage: coverageOf(results) };
    runs.push(run);
    if (reporter === 'pretty') await writeAndDrain(ctx.io.stdout, prettyReport(run, colors, files.length > 1));
  }
  if (reporter === 'json') {
    const out = runs.map(jsonReport);
    await writeAndDrain(ctx.io.stdout, `${JSON.stringify(out.length === 1 ? out[0] : out, null, 2)}\n`);
  }
  if (reporter === 'junit') await writeAndDrain(ctx.io.stdout, junitReport(runs, min));

  const below = runs.filter((r) => !meetsMinimum(r.coverage, min));
  for (const r of below) ctx.io.stderr.write(`${r.file}: coverage ${r.coverage.percent}% is below --min-coverage ${min}%\n`);
  // cli.md: the last run's coverage per number is kept for the console.
  const writer = await ctx.client();
  for (const [i, r] of runs.entries()) await keepCallCoverage(writer, r.number, keptCoverage(r.outcomes, r.coverage, Boolean(files[i]!.route)));
  // cli.md: exit 0 when every test passed and coverage is at least --min-coverage, else 1.
  if (below.length || runs.some((r) => r.outcomes.some((o) => o.failure !== null))) throw new ExitStatus(EXIT.failure);
}

/** `--min-coverage 80` (or `80%`): 0 to 100, default 0. */
function minCoverageOf(text: string | undefined): number {
  if (text === undefined) return 0;
  const m = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(text);
  const pct = m ? Number(m[1]) : NaN;
  if (!(pct >= 0 && pct <= 100)) throw new UsageError(`--min-coverage: "${text}" is not a percentage from 0 to 100`, '--min-coverage');
  return pct;
}

/** `--reporter`, else `-o json` as the json reporter; other output formats are not this verb's. */
function reporterOf(ctx: CliContext, reporter: Reporter | undefined): Reporter {
  if (reporter !== undefined) return reporter;
  const format = ctx.outputFormat;
  if (format === undefined || format === 'table') return 'pretty';
  if (format === 'json') return 'json';
  throw new UsageError(`--output: calls test prints its report as pretty lines, json or junit (--reporter ${REPORTERS.join('|')}), not ${format}`, '--output');
}

/** Reads and checks every file (and its route document) before anything is sent: all problems at once, exit 2. */
async function loadAll(ctx: CliContext, names: readonly string[]): Promise<LoadedFile[]> {
  const problems: string[] = [];
  const loaded: LoadedFile[] = [];
  for (const file of names) {
    const path = resolve(ctx.cwd, file);
    let text: string;
    try {
      text = file === STDIN ? await readStdin(ctx.io, '<file>') : await readFile(path, 'utf8');
    } catch (err) {
      problems.push(`${file}: cannot read: ${(err as Error).message}`);
      continue;
    }
    // Standard input (as `svc mcp` gives a tool's text) has no place for `route: FILE` to be relative to.
    const parsed = parseTestFile(text, file !== STDIN);
    if (!parsed.ok) {
      problems.push(...parsed.problems.map((p) => fileProblemLine(file === STDIN ? 'standard input' : file, p)));
      continue;
    }
    const spec = parsed.file;
    try {
      numberRef(spec.number, 'number');
    } catch (err) {
      problems.push(`${file}:${spec.numberLine}: ${(err as Error).message}`);
    }
    if (!spec.route) {
      loaded.push({ file, spec });
      continue;
    }
    // Inline: the service checks it as a PUT route (its refusals point into this file, under `route`).
    if ('inline' in spec.route) {
      loaded.push({ file, spec, route: { shown: file, text, at: ['route'], body: spec.route.inline as PutRouteInput } });
      continue;
    }
    // cli.md: the route document is relative to the test file.
    const shown = join(dirname(file), spec.route.path);
    let routeText: string;
    try {
      routeText = await readFile(resolve(dirname(path), spec.route.path), 'utf8');
    } catch (err) {
      problems.push(`${file}:${spec.route.line}: route: cannot read ${shown}: ${(err as Error).message}`);
      continue;
    }
    const route = parseRouteDocument(routeText);
    if (!route.ok) {
      problems.push(...(route.empty ? [`${shown}: empty`] : route.problems.map((p) => problemLine(p, shown))));
      continue;
    }
    loaded.push({ file, spec, route: { shown, text: routeText, at: [], body: route.body } });
  }
  if (problems.length) {
    const n = problems.length;
    throw new UsageError(`not a valid test file (${n} problem${n === 1 ? '' : 's'}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
  }
  return loaded;
}

/** Every test of a file, in the file's order (src/call-tests paces them by the key's rate limit). */
const evaluateFile = (client: ApiClient, f: LoadedFile): Promise<CallEvaluation[]> =>
  evaluateTests(
    f.spec.tests.map((t) => evaluationBody(f.spec, f.route?.body, t)),
    async (batch) => {
      const res = await evaluateSandboxCalls(client, batch);
      return { data: res.data.data, headers: res.headers };
    },
    (err, i, details) => explained(err, f, i, details),
  );

/**
 * A service refusal, said where the file can be fixed: a route the service refuses points into the
 * route document (exit 2), a refused test at its line (exit 2), a number that is not the account's
 * (or released, or without voice) at the file's `number:`.
 */
function explained(err: unknown, f: LoadedFile, index: number, details: readonly RefusalDetail[]): unknown {
  if (!(err instanceof ApiError)) return err;
  const test = f.spec.tests[index]!;
  if (err.code === 'validation_error' && Array.isArray(err.details)) {
    const lines = details.map((d) => {
      const path = (d.path ?? []).filter((p): p is string | number => typeof p === 'string' || typeof p === 'number');
      if (path[1] === 'route' && f.route) {
        const inRoute = [...f.route.at, ...path.slice(2)];
        return problemLine({ path: formatPath(inRoute) || '(document)', message: d.message ?? '', line: lineForPath(f.route.text, inRoute) }, f.route.shown);
      }
      if (path[1] === 'numberId') return `${f.file}:${f.spec.numberLine}: number: ${d.message ?? ''}`;
      return `${f.file}:${test.line}: tests[${index}] (${test.name}): ${formatPath(path.slice(1))}: ${d.message ?? ''}`;
    });
    return new UsageError(`the service refused ${f.file}:\n${lines.map((l) => `  ${l}`).join('\n')}`);
  }
  if (err.code === 'not_found' || err.code === 'conflict' || err.code === 'channel_unsupported') {
    return new CliError(`${f.file}:${f.spec.numberLine}: number ${f.spec.number}: ${err.message}`, exitCodeForApiError(err.code));
  }
  return err;
}
