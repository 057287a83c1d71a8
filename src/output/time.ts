// Relative times for people at a terminal; pipes keep ISO timestamps so scripts can parse them
// (conventions: "Terminal or pipe changes the look, never the data").

// Only full date-times with an offset: a bare date or a number is left alone.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

export function isIsoTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

/** "just now", "45s ago", "3m ago", "2h ago", "5d ago", "4mo ago", "2y ago", or "in 3m" for the future. */
export function relativeTime(iso: string | Date, now: Date): string {
  const then = iso instanceof Date ? iso.getTime() : Date.parse(iso);
  if (Number.isNaN(then)) return String(iso);
  const diffMs = now.getTime() - then;
  const seconds = Math.floor(Math.abs(diffMs) / 1000);
  if (seconds < 5) return 'just now';

  let amount: string;
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  if (seconds < 60) amount = `${seconds}s`;
  else if (minutes < 60) amount = `${minutes}m`;
  else if (hours < 24) amount = `${hours}h`;
  else if (days < 30) amount = `${days}d`;
  // "mo" rather than "m", which already means minutes.
  else if (days < 365) amount = `${Math.floor(days / 30)}mo`;
  else amount = `${Math.floor(days / 365)}y`;

  return diffMs < 0 ? `in ${amount}` : `${amount} ago`;
}
