import { iso } from '../clock.js';
import type { EvaluatedCall } from '../domain/voice/call-evaluation.js';
import type { CallCoverageRecord } from '../domain/voice/call-coverage.js';
import type { CallCoverage, CallEvaluation } from '../../api/schemas/call-tests.js';
import { coveragePercent } from '../../api/values/calls.js';

// Records → API shapes for calls as tests (contract §6 call evaluation; cli.md "Calls as tests").
// Rules for reads: views/README.md.

/** The evaluated call: its end, its trace in seconds from its start (virtual time 0), every branch. */
export const callEvaluationView = (e: EvaluatedCall): CallEvaluation => ({
  status: e.state.status,
  outcome: e.state.outcome,
  answeredBy: e.state.answeredBy,
  voicemail: e.state.voicemailId !== null,
  trace: e.state.trace.map((t) => ({ atSecs: (t.at - e.state.call.startedAt) / 1000, step: t.step, detail: t.detail })),
  branches: e.branches,
});

export function callCoverageView(r: CallCoverageRecord): CallCoverage {
  const covered = r.branches.filter((b) => b.taken).length;
  return {
    numberId: r.numberId,
    recordedAt: iso(r.recordedAt),
    source: r.source,
    tests: r.tests,
    passed: r.passed,
    covered,
    total: r.branches.length,
    percent: coveragePercent(covered, r.branches.length),
    branches: r.branches,
  };
}
