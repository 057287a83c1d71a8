import { iso } from '../clock.js';
import type { Usage } from '../../api/schemas/billing.js';
import type { UsageReport } from '../domain/billing/usage.js';

// Records → API shape for usage (contract §11). Rules for reads: views/README.md.

export const usageView = (r: UsageReport): Usage => ({
  data: r.lines.map((l) => ({ category: l.category, quantity: l.quantity, amountCents: l.amountCents })),
  totalCents: r.totalCents,
  from: iso(r.fromMs),
  to: iso(r.toMs),
});
