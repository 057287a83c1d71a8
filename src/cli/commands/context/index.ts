import { defineVerb } from '../../verb.js';

// The sub-account context: stored per profile, sent as Service-Subaccount (contract §3). The
// --subaccount flag and SVC_SUBACCOUNT override it for one command. `svc context` alone shows it.
export const defaultVerb = 'show';
export const verbs = [
  defineVerb({
    name: 'show',
    local: true,
    summary: 'Show which account commands act as',
    examples: ['svc context show'],
    run: async () => (await import('./context.run.js')).runShow,
  }),
  defineVerb({
    name: 'use',
    local: true,
    summary: 'Act as this sub-account in every command of the current profile',
    args: [{ name: 'subaccount-id', help: 'a sub-account of your agency: its id, or its name if no other has it', complete: 'subaccount-refs' }],
    examples: ['svc context use 5f0c…', "svc context use 'Harbor Bikes East'", "svc numbers list   # now lists the sub-account's numbers"],
    // Writes the profile file.
    changes: true,
    run: async () => (await import('./context.run.js')).runUse,
  }),
  defineVerb({
    name: 'clear',
    local: true,
    summary: 'Act as the account itself again',
    examples: ['svc context clear'],
    changes: true,
    run: async () => (await import('./context.run.js')).runClear,
  }),
];
