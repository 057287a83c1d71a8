import type { Clock } from '../../clock.js';
import type { LedgerRepo } from '../../storage/ledger-repo.js';
import type { Actor } from '../actor.js';
import { monthStart } from '../month.js';
import { validationError } from '../../errors.js';
import { USAGE_CATEGORIES, type UsageCategory } from '../../../api/values/billing.js';

// contract §11 `GET /v1/usage?from=&to=`: the ledger's charges (net of refunds) per category in
// [from, to). Decisions: `from` defaults to the start of the UTC calendar month of the service clock,
// `to` to now (then inclusive: the charges stamped now count); `from` must be before `to`; only
// categories with usage are listed, in the order of USAGE_CATEGORIES; totalCents is the sum of the lines. Test keys read the same (live) usage.

export interface UsageDeps {
  clock: Clock;
  ledger: LedgerRepo;
}

export interface UsageReport {
  lines: Array<{ category: UsageCategory; quantity: number; amountCents: number }>;
  totalCents: number;
  fromMs: number;
  toMs: number;
}

const parseTime = (value: string | undefined): number | undefined => (value === undefined ? undefined : Date.parse(value));

export async function getUsage(deps: UsageDeps, actor: Actor, query: { from?: string; to?: string }): Promise<UsageReport> {
  const now = deps.clock.nowMs();
  const toMs = parseTime(query.to) ?? now;
  const fromMs = parseTime(query.from) ?? monthStart(now);
  // Without `to`, the range includes now itself: on a clock that has not moved since a charge (a
  // manual sandbox clock), that charge is stamped exactly now and belongs to the report.
  const queryToMs = query.to === undefined ? now + 1 : toMs;
  if (fromMs >= queryToMs) throw validationError(['query', 'from'], 'must be before `to` (default: now)');
  const order = (c: UsageCategory) => USAGE_CATEGORIES.indexOf(c);
  const lines = (await deps.ledger
    .usage(actor.account.id, fromMs, queryToMs))
    .filter((l) => l.quantity !== 0 || l.amountCents !== 0)
    .sort((a, b) => order(a.category) - order(b.category));
  return { lines, totalCents: lines.reduce((sum, l) => sum + l.amountCents, 0), fromMs, toMs };
}
