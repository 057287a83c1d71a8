// issue 15: snapshots and reset of the local service. The data directory's files are changed only
// while the service is stopped: load and reset stop it and start it again (detached, on the same
// address and clock mode) through the code `svc server stop` and `start --detach` use.
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import * as local from '../../local-service.js';
import { printList } from '../../../output/formatters.js';
import { snapshotNameProblem } from '../../../api/values/local-service.js';
import { stopIfRunning } from './server.run.js';
import { listSnapshots, namedSnapshot, removeSnapshot, saveSnapshotFiles, snapshotAt, type SnapshotPlace } from '../../../server/storage/snapshots.js';
import { checkSnapshotVersion, loadSnapshotData, resetData, SnapshotVersionError } from '../../../server/local-state.js';
import { existsSync } from 'node:fs';
import { dataDirInUse } from '../../../server/storage/data-dir-lock.js';

interface NamedOptions {
  name: string;
  dataDir: string;
}

function checkName(name: string): void {
  const problem = snapshotNameProblem(name);
  if (problem) throw new UsageError(`<name>: ${problem}`, '<name>');
}

/**
 * A name (DATA/snapshots/NAME.db), or a path to a `.db` file of the user's: a snapshot committed
 * next to their tests is loaded in CI where it is, no copying into the data directory first.
 */
function placeOf(o: NamedOptions): SnapshotPlace {
  if (isSnapshotPath(o.name)) {
    if (!o.name.endsWith('.db')) throw new UsageError(`<name>: ${o.name}: a snapshot path ends in .db (its media go in the .media folder beside it)`, '<name>');
    return snapshotAt(o.name);
  }
  checkName(o.name);
  return namedSnapshot(o.dataDir, o.name);
}

const isSnapshotPath = (name: string) => name.includes('/') || name.includes('\\') || name.endsWith('.db');

function mustExist(o: NamedOptions, place: SnapshotPlace): void {
  if (!existsSync(place.file)) {
    throw new CliError(
      isSnapshotPath(o.name) ? `no snapshot file ${place.file}` : `no snapshot "${o.name}" in ${o.dataDir}/snapshots (svc server snapshot list)`,
      EXIT.notFound,
    );
  }
}

export async function runSnapshotSave(ctx: CliContext, o: NamedOptions): Promise<void> {
  const place = placeOf(o);
  const started = Date.now();
  let saved: { file: string; bytes: number };
  try {
    saved = await saveSnapshotFiles(o.dataDir, place);
  } catch (error) {
    throw new CliError(`snapshot save: ${(error as Error).message}`);
  }
  ctx.io.stdout.write(`${saved.file}\n`);
  notice(ctx, `saved snapshot ${o.name} (${saved.bytes} bytes, ${Date.now() - started} ms)`);
}

export async function runSnapshotLoad(ctx: CliContext, o: NamedOptions): Promise<void> {
  const place = placeOf(o);
  mustExist(o, place);
  const started = Date.now();
  // Refused before the service is stopped: a snapshot of another schema changes nothing.
  guardVersion(() => checkSnapshotVersion(place, o.name));
  await aroundStoppedService(ctx, o.dataDir, () => guardVersion(() => loadSnapshotData(o.dataDir, place, o.name)));
  notice(ctx, `loaded snapshot ${o.name} (${Date.now() - started} ms)`);
}

export async function runSnapshotList(ctx: CliContext, dataDir: string): Promise<void> {
  const rows = listSnapshots(dataDir);
  await printList(ctx.io, rows, { format: ctx.outputFormat, columns: ['name', 'bytes', 'savedAt', 'schemaVersion'], idField: 'name' });
}

export async function runSnapshotRemove(ctx: CliContext, o: NamedOptions): Promise<void> {
  checkName(o.name);
  mustExist(o, namedSnapshot(o.dataDir, o.name));
  removeSnapshot(o.dataDir, o.name);
  notice(ctx, `removed snapshot ${o.name}`);
}

export async function runReset(ctx: CliContext, o: { dataDir: string; keepKeys: boolean }): Promise<void> {
  await aroundStoppedService(ctx, o.dataDir, () => resetData(o.dataDir, o.keepKeys));
  notice(ctx, o.keepKeys ? 'reset the local service (accounts and keys kept)' : 'reset the local service (bootstrap keys kept)');
}

function guardVersion(fn: () => void): void {
  try {
    fn();
  } catch (error) {
    if (error instanceof SnapshotVersionError) throw new CliError(error.message, EXIT.conflict);
    throw error;
  }
}

/** Stops the service if it runs, changes the files, and starts it again as it was. */
async function aroundStoppedService(ctx: CliContext, dataDir: string, change: () => void): Promise<void> {
  const was = await stopIfRunning(dataDir);
  if (was) notice(ctx, `stopped the local service (pid ${was.pid})`);
  // A service that wrote no server.json (started from code) still holds the directory's lock: its
  // files cannot be swapped under it, and this command cannot know how to start it again.
  if (dataDirInUse(dataDir)) {
    throw new CliError(`a local service is using ${dataDir} but left no server.json (started from code, not by \`svc server start\`): stop it, then run this again; nothing was changed`, EXIT.conflict);
  }
  change();
  if (!was) return;
  const url = new URL(was.baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const again = await local.spawnDetached(ctx, { host, port: Number(url.port), dataDir, clock: was.clock ?? 'system' });
  notice(ctx, `started the local service again at ${again.baseUrl} (pid ${again.pid})`);
}
