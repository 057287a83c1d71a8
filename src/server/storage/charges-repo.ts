import type { Db } from './database.js';
import { newId } from '../ids.js';
import type { UsageCategory } from '../../api/values/billing.js';

// contract §11: one row per billable event, in cents; live only (test keys never move money).
// `voice` (per started minute of an answered call's talk time) and `transcription` (per started minute
// transcribed) are recorded by the call runner (domain/voice/calls.ts).
// contract §11: the 10DLC registry's fees (`brand_registration`, `brand_vetting`, `campaign_registration`) are
// recorded by domain/registration/ as the billable act is accepted.
// contract §11: `email` (1 per started block of 10 non-suppressed recipients, quantity = those recipients)
// is recorded by the accept (domain/email/send.ts).
/** contract §11: the usage categories, listed once in api/values/billing.ts. */
export type ChargeCategory = UsageCategory;

export interface ChargeRecord {
  id: string;
  accountId: string;
  category: ChargeCategory;
  quantity: number;
  amountCents: number;
  /** Id of what was charged (message, number). */
  ref: string | null;
  createdAt: number;
}

interface ChargeRow {
  seq: number;
  id: string;
  account_id: string;
  category: ChargeCategory;
  quantity: number;
  amount_cents: number;
  ref: string | null;
  created_at: number;
}

const toRecord = (r: ChargeRow): ChargeRecord => ({
  id: r.id,
  accountId: r.account_id,
  category: r.category,
  quantity: r.quantity,
  amountCents: r.amount_cents,
  ref: r.ref,
  createdAt: r.created_at,
});

export class ChargesRepo {
  private readonly insertStmt;
  constructor(private readonly db: Db) {
    // Migration 12: the charges are the ledger's `charge` rows (amount signed as it moves the balance).
    this.insertStmt = db.prepare(
      "INSERT INTO ledger (id, account_id, kind, category, quantity, amount_cents, cause, ref, created_at) VALUES (?, ?, 'charge', ?, ?, ?, ?, ?, ?)",
    );
  }

  insert(c: ChargeRecord): void {
    this.insertStmt.run(c.id, c.accountId, c.category, c.quantity, -c.amountCents, `usage: ${c.category}`, c.ref, c.createdAt);
  }

  /** Records one charge; call inside the transaction of the billable change. */
  charge(accountId: string, category: ChargeCategory, quantity: number, amountCents: number, ref: string | null, now: number): ChargeRecord {
    const record: ChargeRecord = { id: newId('chg'), accountId, category, quantity, amountCents, ref, createdAt: now };
    this.insert(record);
    return record;
  }

  listForAccount(accountId: string): ChargeRecord[] {
    return (
      this.db.prepare("SELECT seq, id, account_id, category, quantity, -amount_cents AS amount_cents, ref, created_at FROM ledger WHERE account_id = ? AND kind = 'charge' ORDER BY seq").all(accountId) as ChargeRow[]
    ).map(toRecord);
  }

  /** True when `ref` already carries a charge of `category` at or after `since`. */
  existsFor(ref: string, category: ChargeCategory, since: number): boolean {
    return (
      this.db.prepare("SELECT 1 FROM ledger WHERE ref = ? AND category = ? AND kind = 'charge' AND created_at >= ? LIMIT 1").get(ref, category, since) !==
      undefined
    );
  }
}
