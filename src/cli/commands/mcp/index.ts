import { defineVerb } from '../../verb.js';

// `svc mcp`, the registry served as Model Context Protocol tools over stdio.
export const command = defineVerb({
  name: 'mcp',
  summary: 'Serve these commands to an AI agent as Model Context Protocol tools (stdio)',
  flags: [
    { flags: '--read-only', help: 'serve only the verbs that change nothing' },
    { flags: '--groups <list>', help: 'serve only the tools of these groups, comma-separated (messages,numbers)' },
  ],
  details: `Every verb that acts through the API and needs no terminal is a tool named <group>_<verb> (keys_list,
messages_send; a dot becomes a dash, as model APIs take only letters, digits, _ and -:
svc trigger billing.wallet.low_balance is trigger_billing-wallet-low_balance), its input the verb's arguments and flags, its result the verb's -o json output; a
refusal is the API's error envelope with the exit code the command line would give. Verbs that change
something are marked destructive. The profile, context and base URL are the usual ones (--profile,
SVC_API_KEY…), resolved once at start: every call uses that one key. No tool works on this machine
(profiles, contexts, login, server, fixtures, completion) or takes a path: a file's text is given as
text (emails_send html, routes_apply route, registrations_submit document).
--groups narrows the tools to those groups (TAB completes them; an unknown one is exit 2, the groups named), for an
agent whose context is small. Beside the verbs, always: wait_for_event {types, match, timeout}, the
first event emitted after the call began that is of one of types and holds match (each field of
match present with an equal value, objects in turn: {"data": {"id": "msg_lzTOcfKdfTmly4HUFYrt"}}), and
wait_for_email {to, subjectMatch, timeout}, as svc emails wait; timeout in seconds (default 30, at
most 120), past it an error (exit 1).
The local service serves the same tools over HTTP at /mcp (MCP's streamable HTTP transport), an
API key as the Bearer token; /mcp?groups=messages,numbers narrows them.
Standard output carries the protocol only.`,
  examples: ['svc mcp', 'svc --profile local-test mcp --read-only', 'svc mcp --groups messages,numbers'],
  terminal: true,
  run: async () => (await import('./mcp.run.js')).runMcp,
});
