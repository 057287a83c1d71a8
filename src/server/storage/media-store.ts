import { closeSync, constants, fstatSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Media files the service serves without auth under `/media/<name>` (contract §5: voicemail
 * greetings; call recordings and voicemail audio are the simulated recorder's, made on each read,
 * and port documents are rows of their own: nothing of theirs is stored here). Names are minted by
 * the domain and never contain a path. The engine decides where they live (`Store.mediaStore`):
 * SQLite keeps them on disk beside the database (contract §1: media files beside it), in memory
 * for tests on a `:memory:` database; PostgreSQL in its `media` table, so every replica
 * on the database serves what any of them was sent. Asynchronous, as a database's is.
 *
 * Only a name the database records is served (a file that lands in the folder some other
 * way, from a snapshot's media folder say, is never public), and a file only as itself: a symbolic
 * link or anything but a regular file is not served.
 */
export interface MediaStore {
  /** Stores a medium under a fresh name before the row that names it commits (a failed write deletes it again). */
  put(name: string, bytes: Buffer, owner: MediaOwner): Promise<void>;
  get(name: string): Promise<Buffer | undefined>;
  delete(name: string): Promise<void>;
  /**
   * Deletes every medium but `names` (the ones the database records): after the database was put
   * back to an earlier point (svc/testing `reset()`), what was uploaded since is neither served nor
   * left behind.
   */
  keepOnly(names: Iterable<string>): Promise<void>;
}

/** Whose a medium is, what it holds and when it came (the database engine keeps them beside the bytes). */
export interface MediaOwner {
  accountId: string;
  contentType: string;
  /** The service clock's time of the upload. */
  at: number;
}

const SAFE_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;

/** Whether a file name is one the domain mints for media (no path, no leading dot, one extension). */
export const isMediaName = (name: string): boolean => SAFE_NAME.test(name);

export function assertName(name: string): void {
  if (!isMediaName(name)) throw new Error(`invalid media name ${JSON.stringify(name)}`);
}

/**
 * Opens a file for reading only if it is itself a regular file: O_NOFOLLOW refuses a symbolic link
 * (ELOOP), O_NONBLOCK keeps a FIFO from blocking the open, and fstat on the opened descriptor (not
 * the path, which could be swapped in between) must say regular file. Returns the descriptor, or
 * undefined for a missing file or one that is not a regular file.
 */
export function openRegularFile(path: string): number | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ELOOP' || code === 'ENXIO') return undefined;
    throw err;
  }
  if (!fstatSync(fd).isFile()) {
    closeSync(fd);
    return undefined;
  }
  return fd;
}

/** The bytes of a regular file (never through a link), or undefined. */
export function readRegularFile(path: string): Buffer | undefined {
  const fd = openRegularFile(path);
  if (fd === undefined) return undefined;
  try {
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class FileMediaStore implements MediaStore {
  /**
   * The names the database records (given at open: `RoutesRepo.greetingMediaNames`), then kept as
   * this store writes and deletes: a set lookup per request instead of a query on an unindexed column.
   * A name is added before the row naming it commits (put comes first, and a failed write deletes
   * it again): until then only its uploader knows it.
   */
  private readonly recorded: Set<string>;

  constructor(
    private readonly dir: string,
    recorded: Iterable<string>,
  ) {
    this.recorded = new Set(recorded);
  }

  async put(name: string, bytes: Buffer): Promise<void> {
    assertName(name);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Written whole, then renamed: a reader never sees half a file.
    const tmp = join(this.dir, `.${name}.tmp`);
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, join(this.dir, name));
    this.recorded.add(name);
  }

  async get(name: string): Promise<Buffer | undefined> {
    if (!isMediaName(name) || !this.recorded.has(name)) return undefined;
    return readRegularFile(join(this.dir, name));
  }

  async delete(name: string): Promise<void> {
    assertName(name);
    this.recorded.delete(name);
    rmSync(join(this.dir, name), { force: true });
  }

  async keepOnly(names: Iterable<string>): Promise<void> {
    const kept = new Set(names);
    for (const name of [...this.recorded]) if (!kept.has(name)) await this.delete(name);
    for (const name of kept) if (isMediaName(name)) this.recorded.add(name);
  }
}

export class MemoryMediaStore implements MediaStore {
  private readonly files = new Map<string, Buffer>();
  async put(name: string, bytes: Buffer): Promise<void> {
    assertName(name);
    this.files.set(name, Buffer.from(bytes));
  }
  async get(name: string): Promise<Buffer | undefined> {
    return this.files.get(name);
  }
  async delete(name: string): Promise<void> {
    this.files.delete(name);
  }
  async keepOnly(names: Iterable<string>): Promise<void> {
    const kept = new Set(names);
    for (const name of [...this.files.keys()]) if (!kept.has(name)) this.files.delete(name);
  }
}
