// `svc server snapshot save|load` and `svc server reset` copy, swap and empty the SQLite
// file of a stopped service. A service on PostgreSQL keeps its data in a database that other replicas
// may be using at that moment; a copy inside the database made safe for them is not built here, so
// these commands refuse (cli.md: exit 8, unsupported here) and print what does the same with
// PostgreSQL's own tools. Nothing is changed.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { STORE_FILE } from '../../../api/values/local-service.js';
import { isPostgresUrl, redactStoreUrl } from '../../../server/storage/store-url.js';
import { CliError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';

/** The PostgreSQL URL (password redacted) the data directory's service last started on, or SVC_STORE's; undefined for SQLite. */
export function postgresStoreOf(dataDir: string, envStore: string | undefined): string | undefined {
  if (envStore && isPostgresUrl(envStore)) return redactStoreUrl(envStore);
  const file = path.join(dataDir, STORE_FILE);
  if (!existsSync(file)) return undefined;
  try {
    const recorded = JSON.parse(readFileSync(file, 'utf8')) as { engine?: unknown; url?: unknown };
    return recorded.engine === 'postgres' && typeof recorded.url === 'string' ? recorded.url : undefined;
  } catch {
    return undefined;
  }
}

type StateVerb = { verb: 'save'; name: string } | { verb: 'load'; name: string } | { verb: 'reset' };

/** A shell word: single-quoted unless it is plain. */
const shellWord = (s: string): string => (/^[\w./:@%+=,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** PostgreSQL's commands for what `verb` does to a SQLite file. */
export function postgresCommands(url: string, v: StateVerb): string[] {
  const u = shellWord(url);
  const dump = (name: string) => shellWord(name.endsWith('.db') ? `${name.slice(0, -3)}.dump` : `${name}.dump`);
  switch (v.verb) {
    case 'save':
      return [`pg_dump --format=custom --file=${dump(v.name)} ${u}`];
    case 'load':
      return ['# stop every replica on the database, then:', `pg_restore --clean --if-exists --single-transaction --no-owner --dbname=${u} ${dump(v.name)}`, '# and start them again'];
    case 'reset':
      return [
        '# stop every replica on the database, then:',
        `psql ${u} --single-transaction -c 'DROP SCHEMA public CASCADE' -c 'CREATE SCHEMA public'`,
        '# the first replica started migrates the empty database and bootstraps it again (new keys in bootstrap.json)',
      ];
  }
}

/** Refuses `verb` for a data directory whose service is on PostgreSQL (exit 8), naming the commands that do it there. */
export function refuseOnPostgres(dataDir: string, envStore: string | undefined, v: StateVerb): void {
  const url = postgresStoreOf(dataDir, envStore);
  if (url === undefined) return;
  const what = v.verb === 'reset' ? 'svc server reset' : `svc server snapshot ${v.verb}`;
  const lines = postgresCommands(url, v).map((l) => `  ${l}`);
  const hidden = url.includes('redacted') ? '\n(the password is shown as "redacted": put yours back, or use PGPASSWORD)' : '';
  throw new CliError(
    `${what} works on the SQLite file of a data directory; this service keeps its data in PostgreSQL (${url}), shared by its replicas. ` +
      `Nothing was changed. PostgreSQL's own tools do the same:\n${lines.join('\n')}${hidden}`,
    EXIT.unsupported,
  );
}
