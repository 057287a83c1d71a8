// Files the local service keeps in its data directory that the CLI reads too (contract §1).
/** Written by the running service so `svc server stop|status` can find it. */
export const PID_FILE = 'server.json';

/**
 * Held locked by the running service for its whole life (server/storage/data-dir-lock.ts):
 * one service per data directory, and load/reset see a service that wrote no server.json.
 */
export const LOCK_FILE = 'service.lock';

/**
 * What a service process runs. `api` serves HTTP and runs no job nor delivery; `worker`
 * runs the scheduler and the webhook deliveries and serves no API; `all` both (the default).
 */
export const SERVICE_ROLES = ['api', 'worker', 'all'] as const;
export type ServiceRole = (typeof SERVICE_ROLES)[number];

/**
 * The worker's half of the data directory's lock (LOCK_FILE is the API's half; `all` holds both): one
 * `api` and one `worker` may share a data directory, never two of either.
 */
export const WORKER_LOCK_FILE = 'worker.lock';

/** Written by a running `--role worker` process (it has no address), as PID_FILE is by the API. */
export const WORKER_PID_FILE = 'worker.json';

/** The service's SQLite file and its media folder, in the data directory (contract §1). */
export const DB_FILE = 'svc.db';
export const MEDIA_DIR = 'media';
/**
 * Written by a service started on PostgreSQL (`{engine, url}`, the URL's password
 * redacted), removed by one started on SQLite: `svc server snapshot save|load` and `reset` read it
 * to refuse, with PostgreSQL's own commands, what they do to the SQLite file.
 */
export const STORE_FILE = 'store.json';

/** `svc server snapshot save NAME` writes DATA/snapshots/NAME.db (and NAME.media/). */
export const SNAPSHOTS_DIR = 'snapshots';

/**
 * A snapshot name becomes a file name: letters, digits, `.`, `_`, `-`, starting with a letter or
 * digit, so no name reaches outside DATA/snapshots (no separator, no `..`). Returns why not, or null.
 */
export function snapshotNameProblem(name: string): string | null {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/.test(name)) {
    return `snapshot name "${name}" must be 1-100 letters, digits, ".", "_" or "-", starting with a letter or digit (it becomes a file name)`;
  }
  return null;
}
