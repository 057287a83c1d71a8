// Relative times for people at a terminal; pipes keep ISO timestamps so scripts can parse them
// (conventions: "Terminal or pipe changes the look, never the data").

// Only full date-times with an offset: a bare date or a number is left alone.
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

export function isIsoTimestamp(value: unknown): value is string {
  return typeof value === 'string' && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value));
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const JUST_NOW = 'just now';

/**
 * A field that says when something already happened: `at` (a trace step, a delivery attempt), a
 * `last…` time, or a past participle before `At` (`createdAt`, `updatedAt`, `deliveredAt`,
 * `lastSeenAt`). Times still to come are never named so (`expiresAt`, `nextAttemptAt`, `dueAt`,
 * `focDate`, `currentPeriodEnd`, `visibleAt`); time.test.ts holds every time field of the API to it.
 */
const PAST_TIME_FIELD = /^(?:at|last[A-Z][A-Za-z]*|[a-z][A-Za-z]*(?:ed|[sS]ent|[sS]een)At)$/;

/** Whether a field (its last segment, for a flattened `recipients.0.deliveredAt`) is a past time. */
export function isPastTimeField(field: string): boolean {
  return PAST_TIME_FIELD.test(field.slice(field.lastIndexOf('.') + 1));
}

/**
 * How long ago (or until) a field's time, against `now`: the service's clock as its last answer said
 * (`Service-Time`, CliContext.serviceNow), the one clock every relative time is read against. The
 * service stamps records with that clock, but it can go back (`svc server reset` or `snapshot load`
 * restart it from the system clock while records made after `svc clock advance` remain): a past
 * field later than `now` reads `just now`, never `in 49m`: it happened by now, whenever that was.
 * The exact time is still printed beside it (a single resource) and in every machine format.
 */
export function relativeTimeOf(field: string, iso: string, now: Date): string {
  if (isPastTimeField(field) && Date.parse(iso) > now.getTime()) return JUST_NOW;
  return relativeTime(iso, now);
}

/**
 * "just now", "45s ago", "3m ago", "2h ago", "5d ago", "4mo ago", "2y ago", or "in 3m" for the future.
 * Each amount is rounded to the nearest unit, not floored: a period ending 30 days after a
 * subscription, read a moment later (29.99 days), is `in 30d`, not `in 29d`. A unit gives
 * way to the next one when its rounded amount reaches it (59.6 minutes is `1h`).
 */
export function relativeTime(iso: string | Date, now: Date): string {
  const then = iso instanceof Date ? iso.getTime() : Date.parse(iso);
  if (Number.isNaN(then)) return String(iso);
  const diffMs = now.getTime() - then;
  const abs = Math.abs(diffMs);
  if (abs < 5 * SECOND) return JUST_NOW;

  let amount: string;
  const seconds = Math.round(abs / SECOND);
  const minutes = Math.round(abs / MINUTE);
  const hours = Math.round(abs / HOUR);
  const days = Math.round(abs / DAY);
  if (seconds < 60) amount = `${seconds}s`;
  else if (minutes < 60) amount = `${minutes}m`;
  else if (hours < 24) amount = `${hours}h`;
  // A 30-day period reads in days; "mo" (not "m", which already means minutes) from 31 days on.
  else if (days <= 30) amount = `${days}d`;
  else if (Math.round(days / 30) < 12) amount = `${Math.round(days / 30)}mo`;
  else amount = `${Math.max(1, Math.round(days / 365))}y`;

  return diffMs < 0 ? `in ${amount}` : `${amount} ago`;
}
