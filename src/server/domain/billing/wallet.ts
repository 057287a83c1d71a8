import { iso, type Clock } from '../../clock.js';
import type { EventStore } from '../events/store.js';
import type { WalletRecord, WalletsRepo } from '../../storage/wallets-repo.js';
import type { LedgerRepo } from '../../storage/ledger-repo.js';
import { newId } from '../../ids.js';
import {
  AUTO_RECHARGE_DEFAULTS,
  DEFAULT_PLAN,
  NEW_ACCOUNT_SPEND_LIMIT_CENTS,
  NEW_ACCOUNT_WALLET_CENTS,
  type CreditKind,
} from '../../../api/values/billing.js';

// PROVISIONAL (money-api branch): the lead's wallet.ts lands on main and replaces this file at the
// merge; it implements the signatures money-common.md describes so the billing API can be built and
// tested against them. contract §11: the balance only ever moves with a ledger row.

export interface WalletDeps {
  clock: Clock;
  events: EventStore;
  wallets: WalletsRepo;
  ledger: LedgerRepo;
}

/** contract §11: a new account's wallet: 2000 cents as an opening credit, a 10000-cent monthly limit. */
export function openWallet(deps: Omit<WalletDeps, 'events'>, accountId: string): WalletRecord {
  const now = deps.clock.nowMs();
  const wallet: WalletRecord = {
    accountId,
    balanceCents: NEW_ACCOUNT_WALLET_CENTS,
    autoRechargeEnabled: false,
    thresholdCents: AUTO_RECHARGE_DEFAULTS.thresholdCents,
    rechargeAmountCents: AUTO_RECHARGE_DEFAULTS.amountCents,
    lowBalanceArmed: true,
    spendLimitCents: NEW_ACCOUNT_SPEND_LIMIT_CENTS,
    cardToken: null,
    cardLast4: null,
    plan: DEFAULT_PLAN,
    subscriptionStatus: 'active',
    currentPeriodEnd: null,
    updatedAt: now,
  };
  deps.wallets.insert(wallet);
  deps.ledger.append({
    id: newId('led'), accountId, kind: 'credit', category: null, quantity: 0, amountCents: NEW_ACCOUNT_WALLET_CENTS,
    balanceAfterCents: NEW_ACCOUNT_WALLET_CENTS, cause: 'new account credit', ref: null, holdId: null, createdAt: now,
  });
  return wallet;
}

/** The account's wallet, opened on first use for an account created before wallets existed. */
export function walletOf(deps: Omit<WalletDeps, 'events'>, accountId: string): WalletRecord {
  return deps.wallets.get(accountId) ?? openWallet(deps, accountId);
}

/** spec: Event catalog — `billing.wallet.credited`. Ledger row + balance + event; re-arms the low-balance event. */
export function credit(deps: WalletDeps, accountId: string, amountCents: number, kind: CreditKind, cause: string): WalletRecord {
  const wallet = walletOf(deps, accountId);
  const now = deps.clock.nowMs();
  const balanceCents = wallet.balanceCents + amountCents;
  deps.ledger.append({
    id: newId('led'), accountId, kind: 'credit', category: null, quantity: 0, amountCents, balanceAfterCents: balanceCents,
    cause, ref: null, holdId: null, createdAt: now,
  });
  const lowBalanceArmed = wallet.lowBalanceArmed || balanceCents >= wallet.thresholdCents;
  deps.wallets.update(accountId, { balanceCents, lowBalanceArmed, updatedAt: now });
  deps.events.emit(accountId, 'billing.wallet.credited', { kind, amountCents, balanceCents, at: iso(now) });
  return { ...wallet, balanceCents, lowBalanceArmed, updatedAt: now };
}

/** contract §9 `PUT /v1/sandbox/wallet`: the balance set through a ledger row (cause `sandbox`). */
export function setBalance(deps: WalletDeps, accountId: string, balanceCents: number): WalletRecord {
  const wallet = walletOf(deps, accountId);
  const diff = balanceCents - wallet.balanceCents;
  if (diff === 0) return wallet;
  const now = deps.clock.nowMs();
  deps.ledger.append({
    id: newId('led'), accountId, kind: diff > 0 ? 'credit' : 'charge', category: null, quantity: 0, amountCents: diff,
    balanceAfterCents: balanceCents, cause: 'sandbox', ref: null, holdId: null, createdAt: now,
  });
  const lowBalanceArmed = wallet.lowBalanceArmed || balanceCents >= wallet.thresholdCents;
  deps.wallets.update(accountId, { balanceCents, lowBalanceArmed, updatedAt: now });
  return { ...wallet, balanceCents, lowBalanceArmed, updatedAt: now };
}
