import type { FastifySchemaCompiler } from 'fastify';
import type { z } from 'zod';
import type { ErrorDetail } from '../../api/schemas/errors.js';

/** Where a value came from, as a client names it in an error path. */
const LOCATION: Record<string, string> = { body: 'body', querystring: 'query', params: 'params', headers: 'headers' };

export class RequestValidationError extends Error {
  constructor(readonly details: ErrorDetail[]) {
    super(details.map((d) => `${d.path.join('.')}: ${d.message}`).join('; '));
  }
}

/**
 * Turns zod issues into the spec's `details` (`[{path, message}]`, spec: Errors), one entry per
 * offending field; an unknown field is named by its own path (contract §2).
 */
export function issuesToDetails(location: string, issues: z.core.$ZodIssue[]): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = [location, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ path: [...base, key], message: 'unknown field' });
    } else if (issue.code === 'invalid_type' && / received undefined$/.test(issue.message)) {
      // zod 4 leaves issue.input unset unless asked; its message says when the value was absent.
      details.push({ path: base, message: 'required' });
    } else {
      details.push({ path: base, message: issue.message });
    }
  }
  return details;
}

/**
 * Our own validator compiler (rather than the type provider's) so error paths keep their real
 * segments (array indexes stay numbers) and carry the request location.
 */
export const zodValidatorCompiler: FastifySchemaCompiler<z.ZodType> = ({ schema, httpPart }) => {
  const location = LOCATION[httpPart ?? 'body'] ?? 'body';
  return (data: unknown) => {
    const result = schema.safeParse(data);
    if (result.success) return { value: result.data };
    return { error: new RequestValidationError(issuesToDetails(location, result.error.issues)) };
  };
};
