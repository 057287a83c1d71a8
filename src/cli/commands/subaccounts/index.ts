import { defineVerb } from '../../verb.js';
import { LIST_FLAGS } from '../../list-flags.js';
import { subaccountEndpoints, subaccountList } from '../../../api/resources/subaccounts.js';

// Six one-line verbs over one resource (contract §3): their run functions share
// subaccounts.run.ts, loaded when one of them runs.
const run = () => import('./subaccounts.run.js');
const subaccount = { name: 'id', help: 'sub-account id', complete: 'subaccounts' } as const;

export const verbs = [
  defineVerb({
    name: 'create',
    summary: 'Create a sub-account (agency keys only)',
    flags: [{ flags: '--name <name>', help: 'display name', required: true }],
    examples: ['svc subaccounts create --name "Acme Dental"', 'svc subaccounts create --name Acme -o ids'],
    changes: true,
    api: subaccountEndpoints.create,
    run: async () => (await run()).runCreate,
  }),
  defineVerb({
    name: 'list',
    summary: 'List sub-accounts',
    flags: LIST_FLAGS,
    examples: ['svc subaccounts list --all -o csv'],
    api: { method: 'GET', path: subaccountList.path, agencyLevel: true },
    run: async () => (await run()).runListSubaccounts,
  }),
  defineVerb({
    name: 'get',
    summary: 'Show a sub-account',
    args: [subaccount],
    examples: ['svc subaccounts get 5f0c2d9e-…'],
    api: subaccountEndpoints.get,
    run: async () => (await run()).runGet,
  }),
  defineVerb({
    name: 'update',
    summary: 'Rename a sub-account',
    args: [subaccount],
    flags: [{ flags: '--name <name>', help: 'new name' }],
    examples: ['svc subaccounts update 5f0c2d9e-… --name "Acme Dental West"'],
    changes: true,
    api: subaccountEndpoints.update,
    run: async () => (await run()).runUpdate,
  }),
  defineVerb({
    name: 'suspend',
    summary: 'Suspend a sub-account: its requests get 403 until resumed',
    args: [subaccount],
    examples: ['svc subaccounts suspend 5f0c2d9e-… --yes'],
    prompts: true,
    changes: true,
    api: subaccountEndpoints.update,
    run: async () => (await run()).runSuspend,
  }),
  defineVerb({
    name: 'resume',
    summary: 'Resume a suspended sub-account',
    args: [subaccount],
    examples: ['svc subaccounts resume 5f0c2d9e-…'],
    changes: true,
    api: subaccountEndpoints.update,
    run: async () => (await run()).runResume,
  }),
];
