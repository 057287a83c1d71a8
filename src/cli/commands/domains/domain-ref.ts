// A domain as the commands take it: its id, or its name (the API addresses domains by id only,
// contract §8), so a name is looked up in the account's list. Imported by run modules only.
import type { ApiClient } from '../../../api/client/client.js';
import { ApiError } from '../../../api/client/errors.js';
import { listPages } from '../../../api/resources/list.js';
import { domainList } from '../../../api/resources/domains.js';
import type { Domain } from '../../../api/schemas/email.js';
import { UsageError } from '../../errors.js';

/** The domain's id: given (no dot: `dom_…`), or found by its name (`not_found`, exit 4, when the account has none). */
export async function domainId(client: ApiClient, ref: string, arg = '<domain>'): Promise<string> {
  const v = ref.trim();
  if (v === '' || /\s/.test(v)) throw new UsageError(`${arg}: give a domain name (send.example.com) or a domain id`, arg);
  // A domain name always has a dot (single-label names are refused, contract §8); an id never does.
  if (!v.includes('.')) return v;
  const found = await findByName(client, v);
  if (!found) throw new ApiError({ code: 'not_found', status: 404, message: `${v} is not one of your sending domains (svc domains list)` });
  return found.id;
}

async function findByName(client: ApiClient, name: string): Promise<Domain | undefined> {
  const wanted = name.toLowerCase().replace(/\.$/, '');
  for await (const page of listPages(client, domainList, { limit: 100 })) {
    const hit = page.data.find((d) => d.domain.toLowerCase() === wanted);
    if (hit) return hit;
  }
  return undefined;
}
