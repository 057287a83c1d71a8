import { defineVerb } from '../../verb.js';
import { blockedNumberEndpoints, blockedNumberList } from '../../../api/resources/blocked-numbers.js';
import { LIST_FLAGS } from '../../list-flags.js';

// svc blocked-numbers: the inbound call blocklist (contract §6). Every verb but add takes the entry
// by its id or by the blocked number (entry-ref.ts), so get and delete are not the plain ones.

/** The argument every verb but add takes. */
const entry = { name: 'entry', help: 'blocklist entry id, or the blocked E.164 number', complete: 'blocked-numbers' } as const;

export const verbs = [
  defineVerb({
    name: 'list',
    summary: 'List the inbound call blocklist: confirmed entries and suggestions',
    flags: [...LIST_FLAGS, { flags: '--suggested', help: 'only the entries the service suggested (not enforced until confirmed)' }],
    details: `The service suggests a caller after 5 inbound calls from it within an hour that each ended
unanswered or under 5 s; a suggestion blocks nothing until you confirm it (svc blocked-numbers confirm).`,
    examples: ['svc blocked-numbers list', 'svc blocked-numbers list --suggested -o ids'],
    api: { method: 'GET', path: blockedNumberList.path },
    run: async () => (await import('./list.run.js')).runListBlocked,
  }),
  defineVerb({
    name: 'add',
    summary: 'Block a caller: inbound calls from the number are rejected before anything rings',
    args: [{ name: 'phone-number', help: 'the caller to block, E.164' }],
    flags: [{ flags: '--reason <text>', help: 'why, for the people reading the list' }],
    details: 'A number already on the list: exit 5 (conflict).',
    examples: ['svc blocked-numbers add +14155550199 --reason "robocaller"', 'svc blocked-numbers add +14155550199 -o json'],
    changes: true,
    api: blockedNumberEndpoints.add,
    run: async () => (await import('./add.run.js')).runAddBlocked,
  }),
  defineVerb({
    name: 'get',
    summary: 'Show one blocklist entry: how many calls it rejected and when last',
    args: [entry],
    examples: ['svc blocked-numbers get +14155550199', 'svc blocked-numbers get 0b6f…-… -o json'],
    api: blockedNumberEndpoints.get,
    run: async () => (await import('./get.run.js')).runGetBlocked,
  }),
  defineVerb({
    name: 'confirm',
    summary: 'Confirm a suggested block: from now on calls from the number are rejected',
    args: [entry],
    examples: ['svc blocked-numbers confirm +14155550199', 'svc blocked-numbers list --suggested -o ids | xargs -n1 svc blocked-numbers confirm'],
    changes: true,
    api: blockedNumberEndpoints.update,
    run: async () => (await import('./confirm.run.js')).runConfirmBlocked,
  }),
  defineVerb({
    name: 'update',
    summary: "Change a blocklist entry's reason",
    args: [entry],
    flags: [{ flags: '--reason <text>', help: 'the new reason; "" clears it', required: true }],
    examples: ['svc blocked-numbers update +14155550199 --reason "spam, reported 3 times"', 'svc blocked-numbers update +14155550199 --reason ""'],
    changes: true,
    api: blockedNumberEndpoints.update,
    run: async () => (await import('./update.run.js')).runUpdateBlocked,
  }),
  defineVerb({
    name: 'delete',
    aliases: ['remove'],
    summary: 'Unblock a caller (asks first)',
    args: [entry],
    details: 'Without a terminal, pass --yes (otherwise exit 2, nothing deleted).',
    examples: ['svc blocked-numbers delete +14155550199', 'svc blocked-numbers delete +14155550199 --yes'],
    prompts: true,
    changes: true,
    api: blockedNumberEndpoints.delete,
    run: async () => (await import('./delete.run.js')).runDeleteBlocked,
  }),
];
