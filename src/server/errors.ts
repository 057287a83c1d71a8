import { ERROR_STATUS, MAX_ERROR_DETAILS, type ErrorCode, type ErrorDetail, type OmittedDetails } from '../api/schemas/errors.js';
import { KEY_MODE_REFUSAL_PATH, KEY_PREFIX } from '../api/values/keys.js';

/** A failure the API reports to its client through the error envelope (spec: Errors). */
export class ServiceError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

/** The last detail of a list cut at MAX_ERROR_DETAILS: how many more there were. */
export const omittedDetail = (omitted: number): OmittedDetails => ({
  path: [],
  message: `and ${omitted} more ${omitted === 1 ? 'problem' : 'problems'} not listed (at most ${MAX_ERROR_DETAILS} are)`,
  omitted,
});

export const validationError = (path: ErrorDetail['path'], message: string): ServiceError =>
  new ServiceError('validation_error', `${path.join('.')}: ${message}`, [{ path, message }]);

export const notFound = (what: string): ServiceError => new ServiceError('not_found', `${what} not found`);
export const conflict = (message: string): ServiceError => new ServiceError('conflict', message);
export const forbidden = (message: string): ServiceError => new ServiceError('forbidden', message);

/** contract §2: a test key refused for being one; its detail names the credential as the field at fault. */
export const testKeyForbidden = (message: string): ServiceError =>
  new ServiceError('forbidden', message, [
    { path: [...KEY_MODE_REFUSAL_PATH], message: `a test key (${KEY_PREFIX.test}…); this needs a live key (${KEY_PREFIX.live}…)` },
  ]);
