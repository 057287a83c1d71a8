// Snapshots and reset of the local service. The data directory's files are changed only
// while the service is stopped: load and reset stop it and start it again (detached, on the same
// address and clock mode) through the code `svc server stop` and `start --detach` use.
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { holdInterrupts } from '../../long-running.js';
import { CancelledError, CliError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import * as local from '../../local-service.js';
import { printList } from '../../../output/formatters.js';
import { snapshotNameProblem } from '../../../api/values/local-service.js';
import { stopIfRunning, stopWorkerIfRunning } from './server.run.js';
import { discardStaged, listSnapshots, namedSnapshot, removeSnapshot, saveSnapshotFiles, snapshotAt, type SnapshotPlace } from '../../../server/storage/sqlite/snapshots.js';
import { loadSnapshotData, resetData, SnapshotVersionError, stageSnapshot } from '../../../server/local-state.js';
import type { SettledTrust } from '../../../server/snapshot-trust.js';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { DB_FILE, MEDIA_DIR } from '../../../api/values/local-service.js';
import { dataDirInUse, partInUse } from '../../../server/storage/sqlite/data-dir-lock.js';
import { refuseOnPostgres } from './postgres-state.js';

interface NamedOptions {
  name: string;
  dataDir: string;
}

function checkName(name: string): void {
  const problem = snapshotNameProblem(name);
  if (problem) throw new UsageError(problem, '<name>');
}

/**
 * A name (DATA/snapshots/NAME.db), or a path to a `.db` file of the user's: a snapshot committed
 * next to their tests is loaded in CI where it is, no copying into the data directory first.
 */
function placeOf(o: NamedOptions): SnapshotPlace {
  if (isSnapshotPath(o.name)) {
    if (!o.name.endsWith('.db')) throw new UsageError(`${o.name}: a snapshot path ends in .db (its media go in the .media folder beside it)`, '<name>');
    const place = snapshotAt(o.name);
    // The live database is not a snapshot of itself (saving onto it, or loading it into itself).
    if (place.file === path.resolve(o.dataDir, DB_FILE) || place.file.startsWith(`${path.resolve(o.dataDir, MEDIA_DIR)}${path.sep}`)) {
      throw new UsageError(`${o.name} is the local service's own data in ${o.dataDir}: name a file outside it, or a NAME (DATA/snapshots/NAME.db)`, '<name>');
    }
    return place;
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
  refuseOnPostgres(o.dataDir, ctx.env.SVC_STORE, { verb: 'save', name: o.name });
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

export async function runSnapshotLoad(ctx: CliContext, o: NamedOptions & { trust: boolean }): Promise<void> {
  refuseOnPostgres(o.dataDir, ctx.env.SVC_STORE, { verb: 'load', name: o.name });
  const place = placeOf(o);
  mustExist(o, place);
  const started = Date.now();
  // Copied and checked before the service is stopped: a refused snapshot changes nothing.
  const staged = guardVersion(() => stageSnapshot(o.dataDir, place, o.name));
  let settled: SettledTrust | undefined;
  try {
    await aroundStoppedService(ctx, o.dataDir, async () => {
      settled = await loadSnapshotData(o.dataDir, staged, { trust: o.trust });
    });
  } finally {
    discardStaged(staged);
  }
  if (settled) noticeTrust(ctx, settled);
  notice(ctx, `loaded snapshot ${o.name} (${Date.now() - started} ms)`);
}

/** Says what the load took away from a snapshot it does not trust, and how to keep it. */
function noticeTrust(ctx: CliContext, settled: SettledTrust): void {
  const parts = [
    ...(settled.revokedKeys ? [`revoked ${settled.revokedKeys} API key${settled.revokedKeys > 1 ? 's' : ''} this data directory did not have`] : []),
    ...(settled.disabledEndpoints ? [`disabled ${settled.disabledEndpoints} webhook endpoint${settled.disabledEndpoints > 1 ? 's' : ''} to hosts it did not send to`] : []),
  ];
  if (parts.length) notice(ctx, `the snapshot's own access: ${parts.join('; ')} (--trust-snapshot keeps them, for a snapshot you trust)`);
}

export async function runSnapshotList(ctx: CliContext, dataDir: string): Promise<void> {
  const rows = listSnapshots(dataDir);
  await printList(ctx.io, rows, { format: ctx.outputFormat, columns: ['name', 'bytes', 'savedAt', 'schemaVersion'], idField: 'name' });
}

export async function runSnapshotRemove(ctx: CliContext, o: NamedOptions): Promise<void> {
  if (isSnapshotPath(o.name)) throw new UsageError(`${o.name}: remove takes a NAME from \`svc server snapshot list\`; a snapshot file of your own is deleted like any file`, '<name>');
  checkName(o.name);
  mustExist(o, namedSnapshot(o.dataDir, o.name));
  removeSnapshot(o.dataDir, o.name);
  notice(ctx, `removed snapshot ${o.name}`);
}

export async function runReset(ctx: CliContext, o: { dataDir: string; keepKeys: boolean }): Promise<void> {
  refuseOnPostgres(o.dataDir, ctx.env.SVC_STORE, { verb: 'reset' });
  const dbFile = path.join(o.dataDir, DB_FILE);
  if (!existsSync(dbFile)) throw new CliError(`${dbFile} does not exist: nothing to reset (start the local service once to create it)`, EXIT.notFound);
  await aroundStoppedService(ctx, o.dataDir, async () => await resetData(o.dataDir, o.keepKeys));
  notice(ctx, o.keepKeys ? 'reset the local service (accounts and keys kept)' : 'reset the local service (bootstrap keys kept)');
}

function guardVersion<T>(fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    // cli.md: 5 for another schema version; a damaged file or another program's database is bad input (2).
    if (error instanceof SnapshotVersionError) throw new CliError(error.message, error.kind === 'version' ? EXIT.conflict : EXIT.usage);
    throw error;
  }
}

/**
 * Stops the service if it runs, changes the files, and starts it again as it was. Ctrl-C does not cut
 * this short (it would leave the service stopped with nothing changed, or half changed): it is noted,
 * the work finishes, the service comes back, and then the command ends as interrupted (130).
 */
async function aroundStoppedService(ctx: CliContext, dataDir: string, change: () => Promise<void>): Promise<void> {
  const held = holdInterrupts(ctx, () => notice(ctx, 'finishing first: the data is being swapped and the service started again'));
  try {
    await swapAroundStoppedService(ctx, dataDir, change);
  } finally {
    held.release();
  }
  if (held.pressed) throw new CancelledError('interrupted: the change was completed and the service is as it was before the command');
}

async function swapAroundStoppedService(ctx: CliContext, dataDir: string, change: () => Promise<void>): Promise<void> {
  const was = await stopIfRunning(dataDir);
  if (was) notice(ctx, `stopped the local service (pid ${was.pid})`);
  // A worker beside an API process is stopped too, and started again after it.
  const worker = await stopWorkerIfRunning(dataDir);
  if (worker) notice(ctx, `stopped the local service worker (pid ${worker.pid})`);
  // A service that wrote no server.json (started from code) still holds the directory's lock: its
  // files cannot be swapped under it, and this command cannot know how to start it again.
  if (dataDirInUse(dataDir)) {
    throw new CliError(`a local service is using ${dataDir} but left no server.json (started from code, not by \`svc server start\`): stop it, then run this again; nothing was changed`, EXIT.conflict);
  }
  await change();
  if (was) {
    const url = new URL(was.baseUrl);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const again = await local.spawnDetached(ctx, { host, port: Number(url.port), dataDir, clock: was.clock ?? 'system', role: was.role === 'api' ? 'api' : 'all' });
    notice(ctx, `started the local service again at ${again.baseUrl} (pid ${again.pid})`);
  }
  if (worker) {
    const again = await local.spawnDetachedWorker(ctx, { dataDir, clock: worker.clock ?? 'system' }, () => partInUse(dataDir, 'worker'));
    notice(ctx, `started the local service worker again (pid ${again.pid})`);
  }
}
