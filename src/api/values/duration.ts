// cli.md: durations like 30s, 10m, 6h, 7d (and combinations: 1h30m); a bare number is seconds. Read
// by the CLI's flags, svc/testing's clock and the call test format alike.
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400, w: 604800 };

/** The duration's seconds, or undefined when `text` is not one. */
export function durationSecs(text: string): number | undefined {
  const t = text.trim();
  if (/^\d+$/.test(t)) return Number(t);
  const parts = [...t.matchAll(/(\d+)([smhdw])/g)];
  if (!parts.length || parts.map((p) => p[0]).join('') !== t) return undefined;
  return parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_SECONDS[p[2]!]!, 0);
}
