// The console: the service's own pages under /console, reached with a one-time link minted
// through the API with a key (`POST /v1/console/sessions`, `svc console`). zod-free: the CLI, the
// schemas and the service read these.

/** Where the console's pages are served, on the service itself. */
export const CONSOLE_PATH = '/console';
/** The path that exchanges a one-time link's token for a session cookie. */
export const CONSOLE_LOGIN_PATH = `${CONSOLE_PATH}/login`;
/** A one-time link is good for this long (real time, not the service clock), and only once. */
export const CONSOLE_LINK_TTL_SECS = 60;
/** A session lasts this long from its link's exchange (real time, not the service clock), whatever its use; then `svc console` again. */
export const CONSOLE_SESSION_TTL_SECS = 12 * 60 * 60;
/** What a row of the console's session table is: an unused one-time link, or a session a link became. */
export const CONSOLE_SESSION_KINDS = ['link', 'session'] as const;
export type ConsoleSessionKind = (typeof CONSOLE_SESSION_KINDS)[number];
