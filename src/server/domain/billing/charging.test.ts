import { describe, expect, it } from 'vitest';
import { createDomainFixture } from '../../../../test/helpers/domain-fixture.js';
import { NEW_ACCOUNT_WALLET_CENTS, NEW_ACCOUNT_SPEND_LIMIT_CENTS, SANDBOX_CARD_TOKEN, SANDBOX_DECLINED_CARD_TOKEN } from '../../../api/values/billing.js';
import { ServiceError } from '../../errors.js';
import { charge, release, reserve, settle } from './charging.js';
import { monthToDate, setBalance, walletOf } from './wallet.js';
import { monthStart } from '../month.js';

// contract §11 (issue 12): the one charging path, on a real in-memory database.

const item = (amountCents: number, ref = `ref_${amountCents}`) => ({ category: 'sms' as const, quantity: 1, amountCents, ref });

function setup() {
  const fx = createDomainFixture();
  const { deps, agency } = fx;
  const payer = { accountId: agency.id, mode: 'live' as const };
  const tx = <T>(fn: () => T): T => deps.uow.transaction(fn);
  const balance = async () => (await deps.uow.write((tx) => walletOf(tx, agency.id))).balanceCents;
  const consistent = async () => expect(await deps.ledger.sum(agency.id)).toBe(await balance());
  const events = (type: string) =>
    (deps.db.prepare('SELECT body FROM events WHERE account_id = ? AND type = ? ORDER BY seq').all(agency.id, type) as Array<{ body: string }>).map((r) => JSON.parse(r.body));
  return { fx, deps, agency, payer, tx, balance, consistent, events };
}

const refusal = (fn: () => unknown): ServiceError => {
  try {
    fn();
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('charging path', () => {
  it('a new account opens with its credit on the ledger; a charge moves the balance and the ledger together', async () => {
    const { deps, agency, payer, tx, balance, consistent } = setup();
    expect(balance()).toBe(NEW_ACCOUNT_WALLET_CENTS);
    consistent();
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(150))));
    expect(balance()).toBe(NEW_ACCOUNT_WALLET_CENTS - 150);
    consistent();
    const last = (await deps.ledger.entries(agency.id)).at(-1)!;
    expect(last).toMatchObject({ kind: 'charge', category: 'sms', amountCents: -150, balanceAfterCents: NEW_ACCOUNT_WALLET_CENTS - 150, ref: 'ref_150' });
  });

  it('test mode moves no money', async () => {
    const { deps, agency, tx, balance } = setup();
    const rows = (await deps.ledger.entries(agency.id)).length;
    tx(async () => await deps.uow.write((tx) => charge(tx, { accountId: agency.id, mode: 'test' }, item(150))));
    expect(await deps.uow.write((tx) => reserve(tx, { accountId: agency.id, mode: 'test' }, item(150)))).toBeNull();
    expect(balance()).toBe(NEW_ACCOUNT_WALLET_CENTS);
    expect(await deps.ledger.entries(agency.id)).toHaveLength(rows);
  });

  it('an empty wallet refuses with payment_required and writes nothing; the exact balance still pays', async () => {
    const { deps, agency, payer, tx, balance, consistent } = setup();
    tx(async () => await deps.uow.write((tx) => setBalance(tx, agency.id, 100)));
    const rows = (await deps.ledger.entries(agency.id)).length;
    const err = refusal(() => tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(101)))));
    expect(err.code).toBe('payment_required');
    expect(err.status).toBe(402);
    expect(err.message).toContain('top-up');
    expect(await deps.ledger.entries(agency.id)).toHaveLength(rows);
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(100))));
    expect(balance()).toBe(0);
    consistent();
  });

  it('the monthly spend limit refuses with budget_exceeded, counting open holds', () => {
    const { deps, agency, payer, tx } = setup();
    tx(async () => await deps.uow.write((tx) => setBalance(tx, agency.id, NEW_ACCOUNT_SPEND_LIMIT_CENTS * 2)));
    tx(async () => await deps.uow.write((tx) => reserve(tx, payer, item(NEW_ACCOUNT_SPEND_LIMIT_CENTS - 10, 'msg_a'))));
    expect(refusal(() => tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(11))))).code).toBe('budget_exceeded');
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(10))));
    expect(refusal(() => tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(1))))).code).toBe('budget_exceeded');
  });

  it('a hold takes the money at once; settle turns it into the charge; release gives it back; each once', async () => {
    const { deps, agency, payer, tx, balance, consistent } = setup();
    tx(async () => await deps.uow.write((tx) => reserve(tx, payer, item(30, 'msg_1'))));
    tx(async () => await deps.uow.write((tx) => reserve(tx, payer, item(40, 'msg_2'))));
    expect(balance()).toBe(NEW_ACCOUNT_WALLET_CENTS - 70);
    tx(async () => await deps.uow.write((tx) => settle(tx, 'msg_1')));
    tx(async () => await deps.uow.write((tx) => settle(tx, 'msg_1')));
    tx(async () => await deps.uow.write((tx) => release(tx, 'msg_2')));
    tx(async () => await deps.uow.write((tx) => release(tx, 'msg_2')));
    expect(balance()).toBe(NEW_ACCOUNT_WALLET_CENTS - 30);
    consistent();
    expect(await deps.ledger.usage(agency.id, 0, Number.MAX_SAFE_INTEGER)).toEqual([{ category: 'sms', quantity: 1, amountCents: 30 }]);
  });

  it('auto-recharge fills a short wallet from the saved card; a declined card refuses with the reason', async () => {
    const { deps, agency, payer, tx, balance, consistent } = setup();
    tx(async () => await deps.uow.write((tx) => setBalance(tx, agency.id, 0)));
    await deps.wallets.update(agency.id, { autoRechargeEnabled: true, cardToken: SANDBOX_CARD_TOKEN, updatedAt: 0 });
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(50))));
    expect(balance()).toBe((await deps.uow.write((tx) => walletOf(tx, agency.id))).rechargeAmountCents - 50);
    consistent();
    // (setting the balance is a crossing too: with the good card saved, it would recharge at once)
    await deps.wallets.update(agency.id, { cardToken: SANDBOX_DECLINED_CARD_TOKEN, updatedAt: 0 });
    tx(async () => await deps.uow.write((tx) => setBalance(tx, agency.id, 0)));
    const err = refusal(() => tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(50)))));
    expect(err.code).toBe('payment_required');
    expect(err.message).toContain('declined');
    expect(balance()).toBe(0);
  });

  it('billing.wallet.low_balance fires once per crossing below the threshold, re-armed by a credit above it', async () => {
    const { deps, agency, payer, tx, events } = setup();
    const threshold = (await deps.uow.write((tx) => walletOf(tx, agency.id))).thresholdCents;
    tx(async () => await deps.uow.write((tx) => setBalance(tx, agency.id, threshold + 20)));
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(10))));
    expect(events('billing.wallet.low_balance')).toHaveLength(0);
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(15))));
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(15))));
    const fired = events('billing.wallet.low_balance');
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ balanceCents: threshold - 5, thresholdCents: threshold, autoRechargeStarted: false });
    tx(async () => await deps.uow.write((tx) => setBalance(tx, agency.id, threshold + 100)));
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(150))));
    expect(events('billing.wallet.low_balance')).toHaveLength(2);
  });
});

describe("the month's spend", () => {
  it('is counted on the wallet as usage is charged, net of nothing else, and starts again with a new month', async () => {
    const { fx, deps, agency, payer, tx } = setup();
    const spent = async () => await monthToDate(deps, await deps.uow.write((tx) => walletOf(tx, agency.id)), deps.clock.nowMs());
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(120))));
    tx(async () => await deps.uow.write((tx) => reserve(tx, payer, item(30, 'msg_m'))));
    tx(async () => await deps.uow.write((tx) => settle(tx, 'msg_m')));
    tx(async () => await deps.uow.write((tx) => setBalance(tx, agency.id, 5000))); // a sandbox adjustment is not spend
    expect(await spent()).toBe(150);
    expect(await spent()).toBe(await deps.ledger.chargedSince(agency.id, monthStart(deps.clock.nowMs())));
    fx.clock.setTo(fx.clock.nowMs() + 32 * 86_400_000);
    expect(await spent()).toBe(0);
    tx(async () => await deps.uow.write((tx) => charge(tx, payer, item(7))));
    expect(await spent()).toBe(7);
    expect(await spent()).toBe(await deps.ledger.chargedSince(agency.id, monthStart(deps.clock.nowMs())));
  });
});
