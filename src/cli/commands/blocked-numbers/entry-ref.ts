// A blocklist entry as the commands take it: its id, or the E.164 number it blocks (cli.md: numbers
// are accepted as ids or E.164 everywhere). The API addresses entries by id only (contract §6), so a
// number is looked up in the account's list. Imported by run modules only.
import type { ApiClient } from '../../../api/client/client.js';
import { ApiError } from '../../../api/client/errors.js';
import { listPages } from '../../../api/resources/list.js';
import { blockedNumberList } from '../../../api/resources/blocked-numbers.js';
import type { BlockedNumber } from '../../../api/schemas/blocked-numbers.js';
import { UsageError } from '../../errors.js';
import { requireE164 } from '../../phone-numbers.js';

/** The entry's id: given, or found by its number (`not_found`, exit 4, when the number is not listed). */
export async function entryId(client: ApiClient, ref: string, arg = '<entry>'): Promise<string> {
  const v = ref.trim();
  if (v === '' || /\s/.test(v)) throw new UsageError(`${arg}: give a blocklist entry id or an E.164 number`, arg);
  if (!v.startsWith('+')) return v;
  const found = await findByNumber(client, requireE164(v, arg));
  if (!found) throw new ApiError({ code: 'not_found', status: 404, message: `${v} is not on the blocklist (svc blocked-numbers list)` });
  return found.id;
}

async function findByNumber(client: ApiClient, phoneNumber: string): Promise<BlockedNumber | undefined> {
  for await (const page of listPages(client, blockedNumberList, { limit: 100 })) {
    const hit = page.data.find((e) => e.phoneNumber === phoneNumber);
    if (hit) return hit;
  }
  return undefined;
}
