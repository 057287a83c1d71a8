// What `--store` (env SVC_STORE) may name, shared by the CLI's checks and the service's opening of
// the engine. No driver is imported here: the CLI reads this without loading PostgreSQL's.

/** Whether `store` names a PostgreSQL database (`postgres://…` or `postgresql://…`). */
export const isPostgresUrl = (store: string): boolean => /^postgres(ql)?:\/\//i.test(store);

/**
 * The URL as it may be shown or logged: its password (and a `password` query parameter) replaced,
 * so `svc server start --store postgres://u:secret@h/db` never prints the secret back.
 */
export function redactStoreUrl(store: string): string {
  try {
    const url = new URL(store);
    if (url.password) url.password = 'redacted';
    if (url.searchParams.has('password')) url.searchParams.set('password', 'redacted');
    return url.toString();
  } catch {
    return `${store.split('://')[0]}://…`;
  }
}
