import fs from 'node:fs';
import path from 'node:path';
import { bootstrapPath } from './paths.js';

/** `DATA/bootstrap.json`, written once by the local service on an empty data dir (contract §1). */
export type Bootstrap = {
  accountId: string;
  baseUrl: string;
  liveKey: string;
  testKey: string;
};

const FIELDS = ['accountId', 'baseUrl', 'liveKey', 'testKey'] as const;

/** Reads bootstrap.json: `undefined` when it does not exist; an Error naming the file when malformed. */
export function readBootstrap(dataDir: string): Bootstrap | undefined {
  const file = bootstrapPath(dataDir);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new Error(`cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new Error(`malformed ${file}: ${(error as Error).message}`, { cause: error });
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new Error(`malformed ${file}: expected a JSON object`);
  }
  const record = parsed as Record<string, unknown>;
  for (const field of FIELDS) {
    if (typeof record[field] !== 'string' || record[field] === '') {
      throw new Error(`malformed ${file}: "${field}" must be a non-empty string`);
    }
  }
  return {
    accountId: record.accountId as string,
    baseUrl: record.baseUrl as string,
    liveKey: record.liveKey as string,
    testKey: record.testKey as string,
  };
}

/**
 * Writes bootstrap.json with mode 0600 in a 0700 dir (contract §1: it holds the live key).
 * Written to a temp file and renamed, so a reader never sees half a file; chmod afterwards
 * because the mode given at creation is narrowed by the umask and never applies to an existing file.
 */
export function writeBootstrap(dataDir: string, bootstrap: Bootstrap): void {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = bootstrapPath(dataDir);
  // node:crypto loaded only when writing: the CLI reads this file on every command (5 ms, --cpu-prof).
  const temp = path.join(dataDir, `.bootstrap.json.${process.getBuiltinModule('node:crypto').randomUUID()}.tmp`);
  const body: Bootstrap = {
    accountId: bootstrap.accountId,
    baseUrl: bootstrap.baseUrl,
    liveKey: bootstrap.liveKey,
    testKey: bootstrap.testKey,
  };
  try {
    fs.writeFileSync(temp, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
    fs.chmodSync(temp, 0o600);
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.chmodSync(file, 0o600);
}
