// The flags of `svc server …` as a shell gives them, checked and turned into each run module's
// options. Every run module is imported only here, when its verb runs: `start` loads the service
// (fastify, SQLite), the snapshot verbs SQLite; `stop` and `status` only look for a process.
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { SERVICE_ROLES, type ServiceRole } from '../../../api/values/local-service.js';
import type { CLOCK_MODES } from '../../../api/values/sandbox.js';
import { refuseUnsupportedNode } from '../../../api/values/node-runtime.js';

export interface StartFlags {
  host: string;
  port: string;
  data?: string;
  clock: (typeof CLOCK_MODES)[number];
  detach?: boolean;
  rateLimit?: string;
  log?: boolean;
  store?: string;
  poolSize?: string;
  chaos?: string;
  role?: ServiceRole;
  detachedChild?: boolean;
}

export async function runStartFlags(ctx: CliContext, o: StartFlags): Promise<void> {
  const port = Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError('--port must be 0-65535', '--port');
  const rateLimit = o.rateLimit === undefined ? undefined : Number(o.rateLimit);
  if (rateLimit !== undefined && (!Number.isInteger(rateLimit) || rateLimit < 1)) throw new UsageError('--rate-limit must be a positive whole number', '--rate-limit');
  const poolSize = o.poolSize === undefined ? undefined : Number(o.poolSize);
  if (poolSize !== undefined && (!Number.isInteger(poolSize) || poolSize < 1 || poolSize > 1000)) throw new UsageError('--pool-size must be a whole number from 1 to 1000', '--pool-size');
  const store = o.store ?? (ctx.env.SVC_STORE || undefined);
  if (poolSize !== undefined && store === undefined) throw new UsageError('--pool-size is for a PostgreSQL store: give --store postgres://… too', '--pool-size');
  const role = o.role ?? (ctx.env.SVC_ROLE || 'all');
  if (!(SERVICE_ROLES as readonly string[]).includes(role)) throw new UsageError(`--role (env SVC_ROLE) must be one of ${SERVICE_ROLES.join(', ')}; got ${role}`, '--role');
  await (await import('./start.run.js')).runStart(ctx, {
    host: o.host,
    port,
    dataDir: o.data ?? ctx.dataDir,
    clock: o.clock,
    detach: Boolean(o.detach),
    log: Boolean(o.log),
    rateLimit,
    store,
    poolSize,
    ...(o.chaos ? { chaos: o.chaos } : {}),
    printKeys: !o.detachedChild,
    role: role as ServiceRole,
  });
}

export async function runStopFlags(ctx: CliContext, o: { data?: string; role?: ServiceRole }): Promise<void> {
  await (await import('./server.run.js')).runStop(ctx, o.data ?? ctx.dataDir, o.role ?? 'all');
}

export async function runStatusFlags(ctx: CliContext, o: { data?: string }): Promise<void> {
  await (await import('./server.run.js')).runStatus(ctx, o.data ?? ctx.dataDir);
}

/** Snapshots and reset open the service's databases here: refused on a Node that aborts them. */
const state = async () => {
  refuseUnsupportedNode();
  return import('./state.run.js');
};

export async function runSnapshotSaveFlags(ctx: CliContext, o: { name: string; data?: string }): Promise<void> {
  await (await state()).runSnapshotSave(ctx, { name: o.name, dataDir: o.data ?? ctx.dataDir });
}

export async function runSnapshotLoadFlags(ctx: CliContext, o: { name: string; data?: string; trustSnapshot?: boolean }): Promise<void> {
  await (await state()).runSnapshotLoad(ctx, { name: o.name, dataDir: o.data ?? ctx.dataDir, trust: Boolean(o.trustSnapshot) });
}

export async function runSnapshotListFlags(ctx: CliContext, o: { data?: string }): Promise<void> {
  await (await state()).runSnapshotList(ctx, o.data ?? ctx.dataDir);
}

export async function runSnapshotRemoveFlags(ctx: CliContext, o: { name: string; data?: string }): Promise<void> {
  await (await state()).runSnapshotRemove(ctx, { name: o.name, dataDir: o.data ?? ctx.dataDir });
}

export async function runResetFlags(ctx: CliContext, o: { data?: string; keepKeys?: boolean }): Promise<void> {
  await (await state()).runReset(ctx, { dataDir: o.data ?? ctx.dataDir, keepKeys: Boolean(o.keepKeys) });
}
