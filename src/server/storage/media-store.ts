import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Media files the service serves without auth under `/media/<name>` (contract §5: voicemail
 * greetings; recordings and voicemail audio later). Names are minted by the domain and never
 * contain a path. On disk beside the database (contract §1: media files beside it); in memory for
 * tests on a `:memory:` database.
 */
export interface MediaStore {
  put(name: string, bytes: Buffer): void;
  get(name: string): Buffer | undefined;
  delete(name: string): void;
}

const SAFE_NAME = /^[A-Za-z0-9_-]+\.[a-z0-9]+$/;
function assertName(name: string): void {
  if (!SAFE_NAME.test(name)) throw new Error(`invalid media name ${JSON.stringify(name)}`);
}

export class FileMediaStore implements MediaStore {
  constructor(private readonly dir: string) {}

  put(name: string, bytes: Buffer): void {
    assertName(name);
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    // Written whole, then renamed: a reader never sees half a file.
    const tmp = join(this.dir, `.${name}.tmp`);
    writeFileSync(tmp, bytes, { mode: 0o600 });
    renameSync(tmp, join(this.dir, name));
  }

  get(name: string): Buffer | undefined {
    if (!SAFE_NAME.test(name)) return undefined;
    try {
      return readFileSync(join(this.dir, name));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  delete(name: string): void {
    assertName(name);
    rmSync(join(this.dir, name), { force: true });
  }
}

export class MemoryMediaStore implements MediaStore {
  private readonly files = new Map<string, Buffer>();
  put(name: string, bytes: Buffer): void {
    assertName(name);
    this.files.set(name, Buffer.from(bytes));
  }
  get(name: string): Buffer | undefined {
    return this.files.get(name);
  }
  delete(name: string): void {
    this.files.delete(name);
  }
}
