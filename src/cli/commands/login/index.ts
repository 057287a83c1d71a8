import { defineVerb } from '../../verb.js';

// `svc login`: the group is one verb (contract §3; cli.md: login). The profile and base URL are the
// global --profile and --base-url.
export const command = defineVerb({
  name: 'login',
  local: true,
  summary: 'Save an API key to a profile (prompts on a terminal; verifies the key)',
  flags: [{ flags: '--api-key-stdin', help: 'read the API key from standard input (for scripts)' }],
  details: 'The key is never taken as a flag value: it would leak into the process list and shell history.',
  examples: [
    'svc login --profile prod --base-url https://api.example.com',
    'printf %s "$KEY" | svc login --profile ci --base-url https://api.example.com --api-key-stdin --no-input',
  ],
  prompts: true,
  changes: true,
  // The key comes from a prompt or standard input, never an argument: not an MCP tool (its stdin is the protocol).
  terminal: true,
  run: async () => (await import('./login.run.js')).runLoginVerb,
});
