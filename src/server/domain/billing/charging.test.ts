import { describe, expect, it } from 'vitest';
import { createDomainFixture } from '../../../../test/helpers/domain-fixture.js';
import { NEW_ACCOUNT_WALLET_CENTS, NEW_ACCOUNT_SPEND_LIMIT_CENTS, SANDBOX_CARD_TOKEN, SANDBOX_DECLINED_CARD_TOKEN } from '../../../api/values/billing.js';
import { ServiceError } from '../../errors.js';
import { charge, release, reserve, settle } from './charging.js';
import { monthToDate, setBalance, walletOf } from './wallet.js';
import { monthStart } from '../month.js';

// contract §11: the one charging path, on a real in-memory database.

const item = (amountCents: number, ref = `ref_${amountCents}`) => ({ category: 'sms' as const, quantity: 1, amountCents, ref });

async function setup() {
  const fx = await createDomainFixture();
  const { deps, agency } = fx;
  const payer = { accountId: agency.id, mode: 'live' as const };
  const balance = async () => (await deps.uow.write((tx) => walletOf(tx, agency.id))).balanceCents;
  const consistent = async () => expect(await deps.uow.read(async (tx) => await tx.ledger.sum(agency.id))).toBe(await balance());
  const events = (type: string) =>
    (fx.db.prepare('SELECT body FROM events WHERE account_id = ? AND type = ? ORDER BY seq').all(agency.id, type) as Array<{ body: string }>).map((r) => JSON.parse(r.body));
  return { fx, deps, agency, payer, balance, consistent, events };
}

const refusal = async (work: Promise<unknown>): Promise<ServiceError> => {
  try {
    await work;
  } catch (err) {
    if (err instanceof ServiceError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
};

describe('charging path', () => {
  it('a new account opens with its credit on the ledger; a charge moves the balance and the ledger together', async () => {
    const { deps, agency, payer, balance, consistent } = await setup();
    expect(await balance()).toBe(NEW_ACCOUNT_WALLET_CENTS);
    await consistent();
    await deps.uow.write((tx) => charge(tx, payer, item(150)));
    expect(await balance()).toBe(NEW_ACCOUNT_WALLET_CENTS - 150);
    await consistent();
    const last = (await deps.uow.read(async (tx) => await tx.ledger.entries(agency.id))).at(-1)!;
    expect(last).toMatchObject({ kind: 'charge', category: 'sms', amountCents: -150, balanceAfterCents: NEW_ACCOUNT_WALLET_CENTS - 150, ref: 'ref_150' });
  });

  it('test mode moves no money', async () => {
    const { deps, agency, balance } = await setup();
    const rows = (await deps.uow.read(async (tx) => await tx.ledger.entries(agency.id))).length;
    await deps.uow.write((tx) => charge(tx, { accountId: agency.id, mode: 'test' }, item(150)));
    expect(await deps.uow.write((tx) => reserve(tx, { accountId: agency.id, mode: 'test' }, item(150)))).toBeNull();
    expect(await balance()).toBe(NEW_ACCOUNT_WALLET_CENTS);
    expect(await deps.uow.read(async (tx) => await tx.ledger.entries(agency.id))).toHaveLength(rows);
  });

  it('an empty wallet refuses with payment_required and writes nothing; the exact balance still pays', async () => {
    const { deps, agency, payer, balance, consistent } = await setup();
    await deps.uow.write((tx) => setBalance(tx, agency.id, 100));
    const rows = (await deps.uow.read(async (tx) => await tx.ledger.entries(agency.id))).length;
    const err = (await refusal(deps.uow.write((tx) => charge(tx, payer, item(101)))));
    expect(err.code).toBe('payment_required');
    expect(err.status).toBe(402);
    expect(err.message).toContain('top-up');
    expect(await deps.uow.read(async (tx) => await tx.ledger.entries(agency.id))).toHaveLength(rows);
    await deps.uow.write((tx) => charge(tx, payer, item(100)));
    expect(await balance()).toBe(0);
    await consistent();
  });

  it('the monthly spend limit refuses with budget_exceeded, counting open holds', async () => {
    const { deps, agency, payer } = await setup();
    await deps.uow.write((tx) => setBalance(tx, agency.id, NEW_ACCOUNT_SPEND_LIMIT_CENTS * 2));
    await deps.uow.write((tx) => reserve(tx, payer, item(NEW_ACCOUNT_SPEND_LIMIT_CENTS - 10, 'msg_a')));
    expect((await refusal(deps.uow.write((tx) => charge(tx, payer, item(11))))).code).toBe('budget_exceeded');
    await deps.uow.write((tx) => charge(tx, payer, item(10)));
    expect((await refusal(deps.uow.write((tx) => charge(tx, payer, item(1))))).code).toBe('budget_exceeded');
  });

  it('a hold takes the money at once; settle turns it into the charge; release gives it back; each once', async () => {
    const { deps, agency, payer, balance, consistent } = await setup();
    await deps.uow.write((tx) => reserve(tx, payer, item(30, 'msg_1')));
    await deps.uow.write((tx) => reserve(tx, payer, item(40, 'msg_2')));
    expect(await balance()).toBe(NEW_ACCOUNT_WALLET_CENTS - 70);
    await deps.uow.write((tx) => settle(tx, 'msg_1'));
    await deps.uow.write((tx) => settle(tx, 'msg_1'));
    await deps.uow.write((tx) => release(tx, 'msg_2'));
    await deps.uow.write((tx) => release(tx, 'msg_2'));
    expect(await balance()).toBe(NEW_ACCOUNT_WALLET_CENTS - 30);
    await consistent();
    expect(await deps.uow.read(async (tx) => await tx.ledger.usage(agency.id, 0, Number.MAX_SAFE_INTEGER))).toEqual([{ category: 'sms', quantity: 1, amountCents: 30 }]);
  });

  it('auto-recharge fills a short wallet from the saved card; a declined card refuses with the reason', async () => {
    const { deps, agency, payer, balance, consistent } = await setup();
    await deps.uow.write((tx) => setBalance(tx, agency.id, 0));
    await deps.uow.write(async (tx) => await tx.wallets.update(agency.id, { autoRechargeEnabled: true, cardToken: SANDBOX_CARD_TOKEN, updatedAt: 0 }));
    await deps.uow.write((tx) => charge(tx, payer, item(50)));
    expect(await balance()).toBe((await deps.uow.write((tx) => walletOf(tx, agency.id))).rechargeAmountCents - 50);
    await consistent();
    // (setting the balance is a crossing too: with the good card saved, it would recharge at once)
    await deps.uow.write(async (tx) => await tx.wallets.update(agency.id, { cardToken: SANDBOX_DECLINED_CARD_TOKEN, updatedAt: 0 }));
    await deps.uow.write((tx) => setBalance(tx, agency.id, 0));
    const err = (await refusal(deps.uow.write((tx) => charge(tx, payer, item(50)))));
    expect(err.code).toBe('payment_required');
    expect(err.message).toContain('declined');
    expect(await balance()).toBe(0);
  });

  it('billing.wallet.low_balance fires once per crossing below the threshold, re-armed by a credit above it', async () => {
    const { deps, agency, payer, events } = await setup();
    const threshold = (await deps.uow.write((tx) => walletOf(tx, agency.id))).thresholdCents;
    await deps.uow.write((tx) => setBalance(tx, agency.id, threshold + 20));
    await deps.uow.write((tx) => charge(tx, payer, item(10)));
    expect(events('billing.wallet.low_balance')).toHaveLength(0);
    await deps.uow.write((tx) => charge(tx, payer, item(15)));
    await deps.uow.write((tx) => charge(tx, payer, item(15)));
    const fired = events('billing.wallet.low_balance');
    expect(fired).toHaveLength(1);
    expect(fired[0]).toMatchObject({ balanceCents: threshold - 5, thresholdCents: threshold, autoRechargeStarted: false });
    await deps.uow.write((tx) => setBalance(tx, agency.id, threshold + 100));
    await deps.uow.write((tx) => charge(tx, payer, item(150)));
    expect(events('billing.wallet.low_balance')).toHaveLength(2);
  });
});

describe("the month's spend", () => {
  it('is counted on the wallet as usage is charged, net of nothing else, and starts again with a new month', async () => {
    const { fx, deps, agency, payer } = await setup();
    const spent = async () => await deps.uow.write(async (tx) => await monthToDate(tx, await walletOf(tx, agency.id), tx.clock.nowMs()));
    await deps.uow.write((tx) => charge(tx, payer, item(120)));
    await deps.uow.write((tx) => reserve(tx, payer, item(30, 'msg_m')));
    await deps.uow.write((tx) => settle(tx, 'msg_m'));
    await deps.uow.write((tx) => setBalance(tx, agency.id, 5000)); // a sandbox adjustment is not spend
    expect(await spent()).toBe(150);
    expect(await spent()).toBe(await deps.uow.read(async (tx) => await tx.ledger.chargedSince(agency.id, monthStart(deps.clock.nowMs()))));
    fx.clock.setTo(fx.clock.nowMs() + 32 * 86_400_000);
    expect(await spent()).toBe(0);
    await deps.uow.write((tx) => charge(tx, payer, item(7)));
    expect(await spent()).toBe(7);
    expect(await spent()).toBe(await deps.uow.read(async (tx) => await tx.ledger.chargedSince(agency.id, monthStart(deps.clock.nowMs()))));
  });
});
