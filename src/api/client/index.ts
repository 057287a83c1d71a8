// The API client. Note: this barrel loads undici (through client.ts); code that only needs the
// error types (main.ts, exit codes) or masking (profiles) should import errors.js / redact.js.
export {
  ApiClient,
  parseRetryAfter,
  type ApiClientOptions,
  type ApiResponse,
  type HttpMethod,
  type Query,
  type QueryScalar,
  type QueryValue,
  type RawResponse,
  type RequestOptions,
  type ResponseHeaders,
  type ResponseParser,
} from './client.js';
export {
  ApiError,
  DryRunSignal,
  NetworkError,
  ResponseShapeError,
  formatRequestDescription,
  type ApiErrorInit,
  type RequestDescription,
} from './errors.js';
export { REDACTED, maskKey, redactHeader, redactHeaders, redactSecrets, redactUrl } from './redact.js';
