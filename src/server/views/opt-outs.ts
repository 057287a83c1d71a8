import { iso } from '../clock.js';
import type { OptOut } from '../../api/schemas/opt-outs.js';
import type { OptOutRecord } from '../storage/opt-outs-repo.js';

// Records → the OptOut shape (contract §4: `{id, numberId, from, phoneNumber, keyword, createdAt}`).

export const optOutView = (o: OptOutRecord): OptOut => ({
  id: o.id,
  numberId: o.numberId,
  from: o.from,
  phoneNumber: o.phoneNumber,
  keyword: o.keyword,
  createdAt: iso(o.createdAt),
});
