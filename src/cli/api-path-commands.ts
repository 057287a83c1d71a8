import type { RegisteredVerb } from './host.js';
import { longFlag } from './verb.js';
import { ENDPOINT_IN_TEXT, paramsOf, pathPattern } from '../api/resources/endpoint.js';
import type { ApiError } from '../api/client/errors.js';

// The API's messages name the call that helps in API terms (`top it up with POST
// /v1/billing/wallet/top-up`), right for an API client. A person at the command line is told the
// command instead (`svc billing top-up <amount>`): one mapping, read from the verb registry (each
// verb's `api` endpoint), so a new verb is found without a list kept by hand.

/** Groups whose verbs are no answer to "which command makes this call": `svc api` is the call itself, `svc trigger` plays the sandbox's world. */
const NOT_AN_ANSWER = new Set(['api', 'trigger']);

const staticSegments = (path: string): number => path.split('/').filter((s) => s && !s.startsWith('{')).length;

/** The inputs a person must give the verb, in command-line words: arguments, then required flags. */
function inputWords(r: RegisteredVerb, params: Record<string, string>): string[] {
  const values = Object.values(params);
  const words: string[] = [];
  for (const a of r.verb.args ?? []) {
    if (a.optional) continue;
    words.push(a.variadic ? `<${a.name}...>` : (values.shift() ?? `<${a.name}>`));
  }
  for (const f of r.verb.flags ?? []) {
    if (!f.required) continue;
    const value = /<[^>]+>/.exec(f.flags)?.[0];
    words.push(...[longFlag(f.flags), ...(value ? [value] : [])]);
  }
  return words;
}

const requiredInputs = (r: RegisteredVerb): number => (r.verb.args ?? []).filter((a) => !a.optional).length + (r.verb.flags ?? []).filter((f) => f.required).length;

/**
 * The command that makes `method path`: of the verbs calling that endpoint, the one for the most
 * specific path, then the one asking least (`blocked-numbers confirm` before `update --reason`);
 * the path's values fill its arguments. Undefined when no verb makes that call.
 */
export function commandFor(verbs: readonly RegisteredVerb[], method: string, path: string): string | undefined {
  const candidates = verbs
    .filter((r) => r.verb.api && !NOT_AN_ANSWER.has(r.group) && r.verb.api.method === method && pathPattern(r.verb.api).test(path))
    .sort((a, b) => staticSegments(b.verb.api!.path) - staticSegments(a.verb.api!.path) || requiredInputs(a) - requiredInputs(b));
  const best = candidates[0];
  if (!best) return undefined;
  return ['svc', best.group, ...best.path, ...inputWords(best, paramsOf(best.verb.api!, path) ?? {})].join(' ');
}

/** A path named without a method (`/v1/agency`): the group whose verbs work under it. */
function groupFor(verbs: readonly RegisteredVerb[], path: string): string | undefined {
  const under = verbs.find((r) => r.verb.api && !NOT_AN_ANSWER.has(r.group) && (r.verb.api.path === path || r.verb.api.path.startsWith(`${path}/`)));
  if (under) return `svc ${under.group}`;
  const segment = path.split('/')[2];
  return verbs.some((r) => r.group === segment) ? `svc ${segment}` : undefined;
}

/** `text` with every endpoint it names that a command makes replaced by that command (in backquotes); the rest as it was. */
export function inCliTerms(verbs: readonly RegisteredVerb[], text: string): string {
  return text.replace(ENDPOINT_IN_TEXT, (whole, method: string | undefined, path: string) => {
    const command = method ? commandFor(verbs, method, path) : groupFor(verbs, path);
    return command ? `\`${command}\`` : whole;
  });
}

/** What main.ts prints of an API error: its message and details, with the endpoints they name as commands. */
export interface ApiErrorText {
  message: string;
  details: unknown;
}

/** The error's message and details in CLI terms; undefined when they name no endpoint (nothing loaded then). */
export async function apiErrorInCliTerms(err: ApiError): Promise<ApiErrorText | undefined> {
  const names = (text: string) => new RegExp(ENDPOINT_IN_TEXT.source).test(text);
  const detailMessages = Array.isArray(err.details) ? err.details.map((d: { message?: unknown }) => (typeof d?.message === 'string' ? d.message : '')) : [];
  if (!names(err.message) && !detailMessages.some(names)) return undefined;
  const { loadRegistry } = await import('./registry.js');
  const { verbs } = await loadRegistry();
  return {
    message: inCliTerms(verbs, err.message),
    details: Array.isArray(err.details)
      ? err.details.map((d: unknown) => (d && typeof d === 'object' && typeof (d as { message?: unknown }).message === 'string' ? { ...d, message: inCliTerms(verbs, (d as { message: string }).message) } : d))
      : err.details,
  };
}
