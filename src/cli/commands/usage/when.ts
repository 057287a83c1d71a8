import { UsageError } from '../../errors.js';
import { parseDuration } from '../../duration.js';

// `svc usage --from/--to`: a date (UTC midnight), an instant with its offset, `now`, or a relative
// time back from the service clock (`7d` = seven days ago, as `svc clock advance` durations read).

export type When = { at: string } | { agoSecs: number };

export function parseWhen(text: string, flag: string): When {
  const t = text.trim();
  if (t === 'now') return { agoSecs: 0 };
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) {
    const at = `${t}T00:00:00.000Z`;
    if (Number.isNaN(Date.parse(at)) || new Date(at).toISOString() !== at) throw new UsageError(`${flag}: "${text}" is not a date`, flag);
    return { at };
  }
  if (/^\d{4}-\d{2}-\d{2}T/.test(t)) {
    if (!/(Z|[+-]\d{2}:\d{2})$/.test(t) || Number.isNaN(Date.parse(t))) throw new UsageError(`${flag}: "${text}" is not an instant with its offset (e.g. 2026-11-01T09:00:00Z)`, flag);
    return { at: new Date(t).toISOString() };
  }
  try {
    return { agoSecs: parseDuration(t.replace(/\s*ago$/, ''), flag) };
  } catch {
    throw new UsageError(`${flag}: "${text}" is not a date (2026-11-01), an instant (2026-11-01T09:00:00Z), now, or a time back (7d, 12h)`, flag);
  }
}

/** The instant, relative times counted back from `now` (the service clock). */
export const resolveWhen = (w: When, now: Date): string => ('at' in w ? w.at : new Date(now.getTime() - w.agoSecs * 1000).toISOString());

export interface UsageFlags {
  from?: string;
  to?: string;
}

export interface UsageOptions {
  from?: When;
  to?: When;
}

/** The flags as typed (a date, an instant, now, or a time back), checked before any request. */
export const usageOptionsOf = (f: UsageFlags): UsageOptions => ({
  from: f.from === undefined ? undefined : parseWhen(f.from, '--from'),
  to: f.to === undefined ? undefined : parseWhen(f.to, '--to'),
});
