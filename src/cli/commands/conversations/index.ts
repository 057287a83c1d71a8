import { defineVerb } from '../../verb.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { conversationList, conversationEndpoints } from '../../../api/resources/conversations.js';
import { THREAD_LIMIT_DEFAULT, THREAD_LIMIT_MAX } from '../../../api/values/conversations.js';

// svc conversations: contract §4 (threads).
export const verbs = [
  defineVerb({
    name: 'list',
    summary: 'List conversations, one per counterparty, most recent first',
    flags: LIST_FLAGS,
    examples: ['svc conversations list', 'svc conversations list --all -o csv > conversations.csv'],
    api: { method: 'GET', path: conversationList.path },
    run: async () => (await import('./list.run.js')).runListConversations,
  }),
  defineVerb({
    name: 'show',
    summary: 'Show the thread with one counterparty, oldest first',
    args: [{ name: 'counterparty', help: 'the other party, E.164' }],
    flags: [{ flags: '--limit <n>', help: `the latest N messages (1-${THREAD_LIMIT_MAX}, default ${THREAD_LIMIT_DEFAULT})`, json: 'integer' }],
    details: `On a terminal: one line per message (→ you sent it, ← they did), local time, body, and the status
when it is not delivered. Piped or with -o: the messages as rows like any list.`,
    examples: ['svc conversations show +14155550123', 'svc conversations show +14155550123 --limit 200 -o ndjson'],
    api: conversationEndpoints.thread,
    run: async () => (await import('./show.run.js')).runShow,
  }),
];
