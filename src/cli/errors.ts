// Typed errors a command throws; main.ts alone prints them and picks the exit code (conventions 5).

/** A bad flag, argument or local input (exit 2). `flag` names what to fix when there is one. */
export class UsageError extends Error {
  override name = 'UsageError';
  constructor(
    message: string,
    readonly flag?: string,
  ) {
    super(message);
  }
}

/** The user pressed Ctrl-C at a prompt or while waiting (exit 130, cli.md "interrupted"). */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor(message = 'cancelled') {
    super(message);
  }
}

/**
 * The user answered no to a confirmation (exit 1). Not 130: nothing was interrupted, the user
 * chose; cli.md keeps 130 for Ctrl-C. Still non-zero, so `svc numbers buy N && next` stops.
 */
export class DeclinedError extends Error {
  override name = 'DeclinedError';
  constructor(message = 'not confirmed; nothing was changed') {
    super(message);
  }
}

/**
 * A failure with a message for the user (exit 1), or with the exit code of cli.md's table that names
 * it when the failure is not an API answer (a snapshot that does not exist: 4).
 */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode?: number,
  ) {
    super(message);
  }
}

/**
 * A verb whose exit code is its answer, with everything already printed (`routes diff`: 1 when the
 * file would change the route). main.ts returns the code and prints nothing.
 */
export class ExitStatus extends Error {
  override name = 'ExitStatus';
  constructor(readonly code: number) {
    super(`exit status ${code}`);
  }
}
