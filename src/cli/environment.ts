// The environment variables and files `svc` reads: one list, shown by `svc --help` and the man pages.
// Zod-free and import-free: the root help is rendered at build time and --help stays cheap.

export interface Documented {
  name: string;
  description: string;
}

/** cli.md "Global flags and environment": flag > env > profile > default. */
export const ENVIRONMENT_VARIABLES: readonly Documented[] = [
  { name: 'SVC_API_KEY', description: 'API key to use (never a flag: a key on a command line shows in the process list)' },
  { name: 'SVC_PROFILE', description: 'profile to use (--profile)' },
  { name: 'SVC_BASE_URL', description: 'API base URL, overriding the profile (--base-url)' },
  { name: 'SVC_SUBACCOUNT', description: 'act as this sub-account (--subaccount)' },
  { name: 'SVC_OUTPUT', description: 'output format: table, json, yaml, ndjson, csv or ids (-o)' },
  { name: 'SVC_DEBUG', description: 'HTTP trace on stderr with secrets redacted (-v)' },
  { name: 'SVC_CONFIG_DIR', description: 'where profiles live (--config-dir)' },
  { name: 'SVC_DATA_DIR', description: "the local service's data directory (database, bootstrap keys, pid file)" },
  { name: 'NO_COLOR', description: 'set and non-empty: no colour (--no-color)' },
  { name: 'CI', description: 'set (and not "false"): never prompt, as --no-input' },
  { name: 'XDG_CONFIG_HOME', description: 'base directory for profiles (svc/ below it)' },
  { name: 'XDG_DATA_HOME', description: 'base directory for the local service data (svc/ below it)' },
];

export const FILES: readonly Documented[] = [
  { name: '~/.config/svc/config.json', description: 'profiles and their keys (mode 0600); see SVC_CONFIG_DIR' },
  { name: '~/.config/svc/wizards/', description: 'wizard answers (mode 0600): NAME-SUBJECT.partial.yaml while asking (kept on Ctrl-C, to resume), NAME-SUBJECT.yaml for --answers once a run without --answers is done (a run given --answers FILE writes none: its closing command names FILE)' },
  { name: '~/.local/share/svc/svc.db', description: "the local service's SQLite database; see SVC_DATA_DIR" },
  { name: '~/.local/share/svc/bootstrap.json', description: 'the agency account and the live and test keys made at first start (mode 0600)' },
  { name: '~/.local/share/svc/server.json', description: 'the running local service: pid, address' },
  { name: '~/.local/share/svc/service.lock', description: 'locked by the running service (one per data directory)' },
  { name: '~/.local/share/svc/server.log', description: 'the log of a detached local service' },
];

/** The root help's environment section (`svc --help`). */
export function environmentHelp(): string {
  const width = Math.max(...ENVIRONMENT_VARIABLES.map((v) => v.name.length));
  return `Environment:\n${ENVIRONMENT_VARIABLES.map((v) => `  ${v.name.padEnd(width)}  ${v.description}`).join('\n')}`;
}
