import type { Command } from 'commander';
import type { CliContext } from './context.js';
import type { AnyVerb } from './verb.js';

/**
 * A group's module: its verbs as data (the registry), the group itself as one verb
 * (`command`: `svc api`), or both (`svc trigger --list` and `svc trigger <type>`); for the groups not
 * converted yet, a function that adds commander commands itself.
 */
export type GroupModule =
  | { verbs: readonly AnyVerb[]; subgroups?: Readonly<Record<string, string>>; command?: AnyVerb; defaultVerb?: string }
  | { command: AnyVerb }
  | { register(cmd: Command, ctx: CliContext): void };

export interface GroupEntry {
  summary: string;
  load: () => Promise<GroupModule>;
}

/**
 * The command tree's top level, with one-line summaries, loaded without importing any command:
 * `svc --help` lists this, and only the group a user runs is imported (startup: cli.md).
 */
export const GROUPS: Record<string, GroupEntry> = {
  login: { summary: 'Save an API key to a profile (prompts on a terminal; verifies the key)', load: () => import('./commands/login/index.js') },
  profiles: { summary: 'List, show, add, switch and remove profiles', load: () => import('./commands/profiles/index.js') },
  context: { summary: 'Act as a sub-account by default (stored per profile)', load: () => import('./commands/context/index.js') },
  server: { summary: 'Start, stop and check the local service', load: () => import('./commands/server/index.js') },
  fixtures: { summary: 'Run a scenario file (API calls, waits for events, clock moves) and clean up after it', load: () => import('./commands/fixtures/index.js') },
  messages: { summary: 'Send SMS and MMS, list and inspect messages', load: () => import('./commands/messages/index.js') },
  conversations: { summary: 'Threads with each counterparty', load: () => import('./commands/conversations/index.js') },
  'opt-outs': { summary: 'Consumers who texted STOP to your numbers (sends to them are refused)', load: () => import('./commands/opt-outs/index.js') },
  numbers: { summary: 'Search, buy, configure, verify and release phone numbers', load: () => import('./commands/numbers/index.js') },
  brands: { summary: '10DLC brands: register (the wizard), list, update, resubmit, vet', load: () => import('./commands/brands/index.js') },
  campaigns: { summary: '10DLC campaigns: create, list, update, resubmit, and lint a campaign file', load: () => import('./commands/campaigns/index.js') },
  registrations: { summary: 'Draft a campaign, predict its approval, register a brand and campaign from a file', load: () => import('./commands/registrations/index.js') },
  ports: { summary: 'Port numbers in: check, open a request, attach documents, submit, follow', load: () => import('./commands/ports/index.js') },
  routes: { summary: "Call routes as code: show, edit, apply or diff a number's route", load: () => import('./commands/routes/index.js') },
  'blocked-numbers': { summary: 'The inbound call blocklist: block, confirm suggestions, unblock', load: () => import('./commands/blocked-numbers/index.js') },
  calls: { summary: 'Call history, traces, recordings, transfers; simulate a call and watch it run', load: () => import('./commands/calls/index.js') },
  voicemails: { summary: 'Voicemails with transcripts, and their audio', load: () => import('./commands/voicemails/index.js') },
  softphone: { summary: 'Softphone devices (register, tokens, presence) and outbound calls through them', load: () => import('./commands/softphone/index.js') },
  domains: { summary: 'Sending domains for email: add, list, verify (the DNS records to publish), remove', load: () => import('./commands/domains/index.js') },
  emails: { summary: 'Send email, follow each recipient, read the timeline; wait for a message in the mail sandbox', load: () => import('./commands/emails/index.js') },
  suppressions: { summary: 'Addresses email is no longer sent to (bounces, complaints, unsubscribes)', load: () => import('./commands/suppressions/index.js') },
  webhooks: { summary: 'Webhook endpoints, their delivery log, and forwarding events to a local handler (listen)', load: () => import('./commands/webhooks/index.js') },
  events: { summary: 'List the events feed, or follow it live', load: () => import('./commands/events/index.js') },
  console: { summary: 'Open the console: the service\'s web pages for this profile (--no-open prints the link)', load: () => import('./commands/console/index.js') },
  keys: { summary: 'Create, list, show and revoke API keys', load: () => import('./commands/keys/index.js') },
  usage: { summary: 'Spend per category for a period, with a total (dollars on a terminal, cents in json)', load: () => import('./commands/usage/index.js') },
  billing: { summary: 'Plan, subscription, prepaid wallet (top up, auto-recharge), card and monthly spend limit', load: () => import('./commands/billing/index.js') },
  subaccounts: { summary: 'Manage agency sub-accounts', load: () => import('./commands/subaccounts/index.js') },
  agency: { summary: 'Agency-wide views', load: () => import('./commands/agency/index.js') },
  trigger: { summary: "Sandbox: make the outside world act (a consumer's text, a call, a carrier's verdict)", load: () => import('./commands/trigger/index.js') },
  clock: { summary: 'Show or advance the sandbox clock', load: () => import('./commands/clock/index.js') },
  api: { summary: 'Call any endpoint: svc api METHOD PATH', load: () => import('./commands/api/index.js') },
  mcp: { summary: 'Serve these commands to an AI agent as Model Context Protocol tools (stdio)', load: () => import('./commands/mcp/index.js') },
  completion: { summary: 'Print a shell completion script (bash, zsh, fish)', load: () => import('./commands/completion/index.js') },
};
