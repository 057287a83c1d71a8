const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** `30s`, `10m`, `2h`, `7d`, `1h30m` (as the CLI reads them), or a number of seconds. */
export function parseDurationSecs(duration: string | number): number {
  if (typeof duration === 'number') {
    if (!Number.isInteger(duration) || duration < 0) throw new Error(`clock.advance: ${duration} is not a whole number of seconds`);
    return duration;
  }
  const t = duration.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const parts = [...t.matchAll(/(\d+)([smhdw])/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== t) throw new Error(`clock.advance: "${duration}" is not a duration; use e.g. 30s, 10m, 2h, 7d or 1h30m`);
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_SECONDS[p[2]!]!, 0);
}
