import type { ReadDeps, TxDeps } from '../deps.js';
import type { Actor } from '../actor.js';
import type { CallCoverageBody } from '../../../api/schemas/call-tests.js';
import { CALL_COVERAGE_KEY_PREFIX } from '../../storage/service-state-repo.js';
import { ServiceError } from '../../errors.js';
import { getRoute } from './routes.js';

// cli.md "Calls as tests": "only the run's coverage is kept, the last per number, for the console".
// `svc calls test` works out a run's coverage from its evaluations (each stores nothing) and hands it
// here once the run is over; a number keeps its last. It lives in the service state (a small JSON
// value per number, key CALL_COVERAGE_KEY_PREFIX + number id): no table of its own for one value a
// number, and a reset or a snapshot takes it along with everything else.

export interface CallCoverageRecord extends CallCoverageBody {
  numberId: string;
  /** Service-clock ms. */
  recordedAt: number;
}

const keyOf = (numberId: string) => `${CALL_COVERAGE_KEY_PREFIX}${numberId}`;

/**
 * PUT /v1/sandbox/numbers/{id}/call-coverage. The number must be the account's and not released (as
 * its route must). Either key may keep it: it is the record of a test run, not a change to the
 * number, and a test run is what test keys are for.
 */
export async function keepCallCoverage(tx: TxDeps, actor: Actor, idOrPhone: string, body: CallCoverageBody): Promise<CallCoverageRecord> {
  const { number } = await getRoute(tx, actor, idOrPhone);
  const details: Array<{ path: (string | number)[]; message: string }> = [];
  if (body.passed > body.tests) details.push({ path: ['body', 'passed'], message: `more than the ${body.tests} tests run` });
  const seen = new Set<string>();
  body.branches.forEach((b, i) => {
    if (seen.has(b.id)) details.push({ path: ['body', 'branches', i, 'id'], message: `${b.id} is listed twice` });
    seen.add(b.id);
  });
  if (details.length) throw new ServiceError('validation_error', `${details[0]!.path.join('.')}: ${details[0]!.message}`, details);
  const record: CallCoverageRecord = { numberId: number.id, recordedAt: tx.clock.nowMs(), ...body };
  await tx.serviceState.set(keyOf(number.id), record);
  return record;
}

/** GET /v1/sandbox/numbers/{id}/call-coverage: the last run's, or not_found before the first. */
export async function lastCallCoverage(tx: ReadDeps, actor: Actor, idOrPhone: string): Promise<CallCoverageRecord> {
  const { number } = await getRoute(tx, actor, idOrPhone);
  const record = await keptCallCoverage(tx, number.id);
  if (!record) throw new ServiceError('not_found', `no coverage kept for ${number.phoneNumber} yet: \`svc calls test\` keeps a run's`);
  return record;
}

/** The last run kept for a number the caller has already read (the console's number page), or null. */
export async function keptCallCoverage(tx: ReadDeps, numberId: string): Promise<CallCoverageRecord | null> {
  return (await tx.serviceState.get<CallCoverageRecord>(keyOf(numberId))) ?? null;
}
