// One of the account's numbers given as an id or E.164, as an E.164 string: the bodies that name a
// number (`from` of a softphone call, `to` of a sandbox call) take E.164 only (contract §6, §9), and
// the CLI accepts either (cli.md "Numbers are accepted as ids or E.164 everywhere"). Run modules only.
import type { ApiClient } from '../../../api/client/client.js';
import { getNumber } from '../../../api/resources/numbers.js';
import { numberRef } from '../../phone-numbers.js';

export async function numberAsE164(client: ApiClient, value: string, flag: string): Promise<string> {
  const ref = numberRef(value, flag);
  return ref.startsWith('+') ? ref : (await getNumber(client, ref)).phoneNumber;
}
