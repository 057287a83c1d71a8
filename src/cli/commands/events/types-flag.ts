import { UsageError } from '../../errors.js';

/** `--types a,b` / `--events a,b`: comma-separated, blanks dropped; the service checks the names. */
export function parseTypeList(raw: string | undefined, flag: string): string[] | undefined {
  if (raw === undefined) return undefined;
  const types = raw
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '');
  if (types.length === 0) throw new UsageError(`${flag}: give at least one event type (e.g. message.received or message.*)`, flag);
  return types;
}
