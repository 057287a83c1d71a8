/** Start of the calendar month (UTC) holding `nowMs`: months of spend and usage are these (contract §11). */
export function monthStart(nowMs: number): number {
  const d = new Date(nowMs);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
}
