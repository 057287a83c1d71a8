import { defineVerb } from '../../verb.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { optOutList } from '../../../api/resources/opt-outs.js';

// svc opt-outs: contract §4.
export const verbs = [
  defineVerb({
    name: 'list',
    summary: 'List consumers who texted STOP (or another stop word) to your numbers, newest first',
    flags: [...LIST_FLAGS, { flags: '--from <e164>', help: 'opt-outs of this number of yours', complete: 'numbers' }, { flags: '--phone-number <e164>', help: 'opt-outs by this consumer' }],
    details: `Columns: id, from, phoneNumber, keyword, createdAt (piped: tab-separated, ISO times).

A consumer who texts a stop word (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT, REVOKE, OPTOUT, or
one of the campaign's optoutKeywords) to a number is opted out of that number: sends from it to them
are refused (svc messages send exits 8). Only the consumer lifts it, by texting START.`,
    examples: ['svc opt-outs list', 'svc opt-outs list --from +14155550100 --all -o ndjson', 'svc opt-outs list --phone-number +14155550199'],
    api: { method: 'GET', path: optOutList.path },
    run: async () => (await import('./list.run.js')).runListOptOuts,
  }),
];
