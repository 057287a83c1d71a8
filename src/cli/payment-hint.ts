// cli.md exit code 7: a 402 from any command says what to run next, in CLI terms (spec: Errors
// `payment_required` — the wallet is empty; `budget_exceeded` — the monthly spend limit is reached).
// Plain strings: main.ts imports this at start-up.

const HINTS: Record<string, string> = {
  payment_required: 'the prepaid wallet cannot pay for this: add money with `svc billing top-up <amount>` (or turn on `svc billing auto-recharge --enable`); see `svc billing show`',
  budget_exceeded: 'this would pass the monthly spend limit: raise it with `svc billing limit <amount>`; see `svc billing show` and `svc usage`',
};

/** The hint for a payment error code, or undefined for any other code. */
export const paymentHint = (code: string): string | undefined => HINTS[code];
