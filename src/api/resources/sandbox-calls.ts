import type { ApiClient, ApiResponse } from '../client/client.js';
import type { Call, CallScenarioInput } from '../schemas/calls.js';
import type { CallCoverage, CallCoverageBody, CallEvaluation, CallEvaluationBatch, CallEvaluationBatchInput, CallEvaluationInput } from '../schemas/call-tests.js';
import { responseParser } from '../parsers.js';
import { pathOf, type EndpointRef } from './endpoint.js';

// contract §9: the outside world for voice (local service only).
const callParser = responseParser('CallSchema');
const evaluationParser = responseParser('CallEvaluationSchema');
const batchParser = responseParser('CallEvaluationBatchSchema');
const coverageParser = responseParser('CallCoverageSchema');

export const sandboxCallEndpoints = {
  place: { method: 'POST', path: '/v1/sandbox/calls' },
  /** Our extension: the caller presses keys during the call. */
  digits: { method: 'POST', path: '/v1/sandbox/calls/{id}/digits' },
  /** Our extension: the caller hangs up. */
  hangup: { method: 'POST', path: '/v1/sandbox/calls/{id}/hangup' },
  /** Our extension (contract §6): a scripted call run by the call engine on virtual time, nothing stored. */
  evaluate: { method: 'POST', path: '/v1/sandbox/calls/evaluate' },
  /** Our extension: up to 100 scripted calls to one target in one request, each answered as `evaluate` answers it. */
  evaluateBatch: { method: 'POST', path: '/v1/sandbox/calls/evaluate-batch' },
  /** Our extension (cli.md "Calls as tests"): the last test run's coverage of a number's route. */
  keepCoverage: { method: 'PUT', path: '/v1/sandbox/numbers/{id}/call-coverage' },
  coverage: { method: 'GET', path: '/v1/sandbox/numbers/{id}/call-coverage' },
} as const satisfies Record<string, EndpointRef>;

export interface SandboxCallInput {
  from: string;
  to: string;
  scenario?: CallScenarioInput;
}

/** POST /v1/sandbox/calls `{from, to, scenario}`: an inbound call the call engine runs → the Call. */
export async function placeSandboxCall(client: ApiClient, body: SandboxCallInput): Promise<Call> {
  return (await client.request({ method: 'POST', path: sandboxCallEndpoints.place.path, body, schema: callParser })).data;
}

/** POST /v1/sandbox/calls/{id}/digits `{digits}`: the caller presses keys (0-9, * and #) → the Call; 409 once no key reaches the IVR. */
export async function pressSandboxCallDigits(client: ApiClient, id: string, digits: string): Promise<Call> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxCallEndpoints.digits, { id }), body: { digits }, schema: callParser })).data;
}

/** POST /v1/sandbox/calls/{id}/hangup: the caller hangs up → the Call; 409 when it is no longer under way. */
export async function hangUpSandboxCall(client: ApiClient, id: string): Promise<Call> {
  return (await client.request({ method: 'POST', path: pathOf(sandboxCallEndpoints.hangup, { id }), schema: callParser })).data;
}

/**
 * POST /v1/sandbox/calls/evaluate: how the call ends, its trace and the route's branches. The whole
 * response: its rate-limit headers pace a run of many.
 */
export async function evaluateSandboxCall(client: ApiClient, body: CallEvaluationInput): Promise<ApiResponse<CallEvaluation>> {
  return await client.request({ method: 'POST', path: sandboxCallEndpoints.evaluate.path, body, schema: evaluationParser });
}

/**
 * POST /v1/sandbox/calls/evaluate-batch: each call's evaluation, in order. The whole response: its
 * rate-limit headers pace a run of many.
 */
export async function evaluateSandboxCalls(client: ApiClient, body: CallEvaluationBatchInput): Promise<ApiResponse<CallEvaluationBatch>> {
  return await client.request({ method: 'POST', path: sandboxCallEndpoints.evaluateBatch.path, body, schema: batchParser });
}

/** PUT /v1/sandbox/numbers/{id}/call-coverage: keeps a test run's coverage as the number's last. */
export async function keepCallCoverage(client: ApiClient, number: string, body: CallCoverageBody): Promise<CallCoverage> {
  return (await client.request({ method: 'PUT', path: pathOf(sandboxCallEndpoints.keepCoverage, { id: number }), body, schema: coverageParser })).data;
}
