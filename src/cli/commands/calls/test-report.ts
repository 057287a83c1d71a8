// cli.md "Calls as tests": what a run found, for people (pretty), machines (json) and CI systems
// (junit). Pure: outcomes in, text out. Run modules only.
import type { CallEvaluation } from '../../../api/schemas/call-tests.js';
import type { Colors } from '../../../output/colors.js';
import { meetsMinimum, reportOf, type FileCoverage, type TestOutcome } from '../../../call-tests/run.js';
import { STEP_WIDTH } from './trace-lines.js';

export interface FileRun {
  /** The test file as named on the command line. */
  file: string;
  number: string;
  outcomes: TestOutcome[];
  coverage: FileCoverage;
}

/** `+12s   ivr.key          1 (Sales) → ring` */
export const traceLine = (t: CallEvaluation['trace'][number]): string => `${`+${t.atSecs}s`.padEnd(7)}${t.step.padEnd(STEP_WIDTH)}  ${t.detail}`;

export const coverageLine = (c: FileCoverage): string => `coverage: ${c.covered} of ${c.total} branch${c.total === 1 ? '' : 'es'} (${c.percent}%)`;

/** cli.md: `✓ name`, or `✗ name` then the first expected step not found and the trace as it ran; then the coverage. */
export function prettyReport(run: FileRun, colors: Colors, header: boolean): string {
  const lines: string[] = header ? [colors.bold(`${run.file} (${run.number})`)] : [];
  for (const o of run.outcomes) {
    if (o.failure === null) {
      lines.push(`${colors.success('✓')} ${o.test.name}`);
      continue;
    }
    lines.push(`${colors.error('✗')} ${o.test.name}`, `    ${o.failure}`, '    trace as it ran:');
    for (const t of o.result.trace) lines.push(`      ${traceLine(t)}`);
  }
  lines.push(coverageLine(run.coverage));
  for (const b of run.coverage.uncovered) lines.push(`uncovered: ${b}`);
  return `${lines.join('\n')}\n`;
}

/** cli.md `--reporter json`: `{tests: [{name, passed, failure, trace}], coverage: {covered, total, percent, uncovered}}`, with the file and number. */
export function jsonReport(run: FileRun): Record<string, unknown> {
  return { file: run.file, number: run.number, ...reportOf(run.outcomes, run.coverage) };
}

// XML 1.0 has no way to write these characters at all (escaped or not); a name from a YAML file
// could hold one. They become U+FFFD, as do lone surrogates.
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };
/** Text or an attribute value, written so any XML parser reads back exactly it (bar the unwritable characters). */
export const xmlEscape = (text: string): string => text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/**
 * JUnit XML for CI systems: a testsuite per file (its coverage as properties), a testcase per test
 * (a failure carries the reason and the trace as it ran), and with `--min-coverage` one more testcase
 * per file that fails when the file covers less.
 */
export function junitReport(runs: readonly FileRun[], minCoverage: number): string {
  const a = (name: string, value: string | number) => ` ${name}="${xmlEscape(String(value))}"`;
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const run of runs) {
    const cases: string[] = [];
    let count = 0;
    let failed = 0;
    for (const o of run.outcomes) {
      count += 1;
      if (o.failure !== null) failed += 1;
      const open = `    <testcase${a('name', o.test.name)}${a('classname', run.file)}`;
      if (o.failure === null) cases.push(`${open}/>`);
      else cases.push(`${open}>`, `      <failure${a('message', o.failure)}${a('type', 'expectation')}>${xmlEscape(o.result.trace.map(traceLine).join('\n'))}</failure>`, '    </testcase>');
    }
    if (minCoverage > 0) {
      count += 1;
      if (!meetsMinimum(run.coverage, minCoverage)) failed += 1;
      const open = `    <testcase${a('name', `coverage at least ${minCoverage}%`)}${a('classname', run.file)}`;
      if (meetsMinimum(run.coverage, minCoverage)) cases.push(`${open}/>`);
      else {
        const why = `coverage ${run.coverage.percent}% is below ${minCoverage}%`;
        cases.push(`${open}>`, `      <failure${a('message', why)}${a('type', 'coverage')}>${xmlEscape(run.coverage.uncovered.map((b) => `uncovered: ${b}`).join('\n'))}</failure>`, '    </testcase>');
      }
    }
    tests += count;
    failures += failed;
    const c = run.coverage;
    const props = [
      `      <property${a('name', 'number')}${a('value', run.number)}/>`,
      `      <property${a('name', 'coverage')}${a('value', `${c.covered} of ${c.total} branches (${c.percent}%)`)}/>`,
      ...c.uncovered.map((b) => `      <property${a('name', 'uncovered')}${a('value', b)}/>`),
    ];
    suites.push(
      `  <testsuite${a('name', run.file)}${a('tests', count)}${a('failures', failed)}${a('errors', 0)}${a('skipped', 0)}>`,
      '    <properties>',
      ...props,
      '    </properties>',
      ...cases,
      '  </testsuite>',
    );
  }
  return ['<?xml version="1.0" encoding="UTF-8"?>', `<testsuites${a('name', 'svc calls test')}${a('tests', tests)}${a('failures', failures)}${a('errors', 0)}>`, ...suites, '</testsuites>', ''].join('\n');
}
