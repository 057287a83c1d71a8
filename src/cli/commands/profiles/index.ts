import { defineVerb } from '../../verb.js';

// svc profiles: profiles live in the config dir (cli.md: profiles); their run functions share
// profiles.run.ts, loaded when a verb runs. Nothing here calls the API.
const NAME_ARG = { name: 'name', help: 'profile name', complete: 'profiles' } as const;

export const verbs = [
  defineVerb({
    name: 'list',
    local: true,
    summary: 'List profiles (keys masked)',
    examples: ['svc profiles list', 'svc profiles list -o json'],
    run: async () => (await import('./profiles.run.js')).runListProfiles,
  }),
  defineVerb({
    name: 'show',
    local: true,
    summary: 'Show one profile (default: the current one), key masked',
    args: [{ ...NAME_ARG, optional: true }],
    examples: ['svc profiles show', 'svc profiles show prod'],
    run: async () => (await import('./profiles.run.js')).runShowProfile,
  }),
  defineVerb({
    name: 'use',
    local: true,
    summary: 'Make a profile the current one',
    args: [NAME_ARG],
    examples: ['svc profiles use prod', 'svc profiles use local'],
    changes: true,
    run: async () => (await import('./profiles.run.js')).runUse,
  }),
  defineVerb({
    name: 'add',
    local: true,
    summary: 'Add or update a profile without verifying it (svc login verifies)',
    args: [{ name: 'name', help: 'profile name' }],
    flags: [{ flags: '--api-key-stdin', help: 'read the API key from standard input' }],
    examples: ['svc profiles add staging --base-url https://staging.example.com --api-key-stdin < key.txt'],
    changes: true,
    // The key comes on standard input: not an MCP tool (its stdin is the protocol).
    terminal: true,
    run: async () => (await import('./profiles.run.js')).runAdd,
  }),
  defineVerb({
    name: 'delete',
    local: true,
    aliases: ['remove'],
    summary: 'Delete a profile (asks first)',
    args: [NAME_ARG],
    details: '`remove`, its old word, still works.',
    examples: ['svc profiles delete staging --yes'],
    prompts: true,
    changes: true,
    run: async () => (await import('./profiles.run.js')).runDelete,
  }),
];
