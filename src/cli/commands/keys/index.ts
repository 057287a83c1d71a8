import { defineVerb } from '../../verb.js';
import { plainGet, plainList } from '../../plain-verbs.js';
import { apiKeyGet, apiKeyList, keyEndpoints } from '../../../api/resources/keys.js';
import { KEY_MODES } from '../../../api/values/keys.js';
import { KEY_COLUMNS, KEY_LIST_COLUMNS } from './columns.js';

// svc keys: contract §3.
export const verbs = [
  defineVerb({
    name: 'create',
    summary: 'Create an API key; the key is printed once and cannot be shown again',
    flags: [
      { flags: '--name <name>', help: 'a name to recognise the key by', required: true },
      { flags: '--mode <mode>', help: 'live or test (asked on a terminal; required otherwise)', choices: KEY_MODES },
    ],
    examples: ['svc keys create --name ci --mode test', 'svc keys create --name deploy --mode live -o json | jq -r .key'],
    prompts: true,
    changes: true,
    api: keyEndpoints.create,
    run: async () => (await import('./create.run.js')).runCreate,
  }),
  plainList({
    summary: 'List API keys (prefixes only; keys are never shown again)',
    endpoint: apiKeyList,
    noun: 'keys',
    columns: KEY_LIST_COLUMNS,
    completeColumns: true,
    examples: ['svc keys list', 'svc keys list --all -o ndjson'],
  }),
  plainGet({
    summary: 'Show one API key: its prefix, name, mode, when it was made, last used and revoked (never the key)',
    arg: { name: 'id', help: 'key id (key_…)', complete: 'keys' },
    endpoint: apiKeyGet,
    columns: KEY_COLUMNS,
    examples: ['svc keys get key_SzLIztsEfd8F6Jleccyv', 'svc keys get key_SzLIztsEfd8F6Jleccyv -o json | jq -r .lastUsedAt'],
  }),
  defineVerb({
    name: 'revoke',
    summary: 'Revoke an API key: it fails with 401 from the next request on',
    args: [{ name: 'id', help: 'key id (key_…)', complete: 'keys' }],
    examples: ['svc keys revoke key_SzLIztsEfd8F6Jleccyv --yes'],
    prompts: true,
    changes: true,
    api: keyEndpoints.revoke,
    run: async () => (await import('./revoke.run.js')).runRevoke,
  }),
];
