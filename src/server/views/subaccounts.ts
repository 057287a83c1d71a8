import { iso } from '../clock.js';
import type { AccountRecord } from '../storage/accounts-repo.js';
import type { Subaccount } from '../../api/schemas/subaccounts.js';

// Records → API shapes for sub-accounts (contract §3). Rules for reads: views/README.md.

export const subaccountView = (a: AccountRecord): Subaccount => ({
  id: a.id,
  name: a.name,
  status: a.status,
  createdAt: iso(a.createdAt),
});
