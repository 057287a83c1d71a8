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

/** The user declined a confirmation or pressed Ctrl-C at a prompt (exit 130). */
export class CancelledError extends Error {
  override name = 'CancelledError';
  constructor(message = 'cancelled') {
    super(message);
  }
}

/** A failure with a message for the user and no better code (exit 1). */
export class CliError extends Error {
  override name = 'CliError';
}
