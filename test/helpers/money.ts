// Money in tests: the ledger is the record of every movement (contract §11), so tests read charges
// from it and check, after every test that moves money, that the wallet equals the sum of its rows.
import { expect } from 'vitest';
import { MONEY_LIMITS } from '../../src/api/values/billing.js';
import { ledgerOf, type ChargeView } from './inspect.js';
import type { TestService } from './service.js';
import { asAccount } from './reads.js';

export type { ChargeView };

/**
 * The invariant: the wallet's balance is the sum of the account's ledger rows, never below zero,
 * and each row's balance-after (where written) is the running sum at that row.
 */
export async function expectLedgerConsistent(svc: Parameters<typeof ledgerOf>[0], accountId: string): Promise<void> {
  const { entries, sum, balance } = await ledgerOf(svc, accountId);
  expect(entries.length).toBeGreaterThan(0);
  let running = 0;
  for (const e of entries) {
    running += e.amountCents;
    expect(running).toBeGreaterThanOrEqual(0);
    if (e.balanceAfterCents !== null) expect(e.balanceAfterCents).toBe(running);
  }
  expect(sum).toBe(running);
  expect(balance).toBe(running);
}

/**
 * A wallet deep enough for a test file that buys, registers and calls a lot (a new account starts
 * with NEW_ACCOUNT_WALLET_CENTS, which a few numbers and a vetted brand use up), with a limit to match.
 * Through `PUT /v1/sandbox/wallet` (one ledger row for the difference, so the ledger still sums to
 * the balance) and `PATCH /v1/billing`, with the live key: `accountId` is the bootstrap account or a
 * sub-account of it (acted for through `Service-Subaccount`).
 */
export async function fundAccount(svc: Pick<TestService, 'call' | 'bootstrap'>, accountId: string, cents = 1_000_000): Promise<void> {
  const { headers } = asAccount(svc, accountId);
  const wallet = await svc.call('PUT', '/v1/sandbox/wallet', { body: { balanceCents: cents }, headers });
  expect(wallet.status, wallet.text).toBe(200);
  const limit = await svc.call('PATCH', '/v1/billing', { body: { spendLimitCents: MONEY_LIMITS.maxSpendLimitCents }, headers });
  expect(limit.status, limit.text).toBe(200);
}
