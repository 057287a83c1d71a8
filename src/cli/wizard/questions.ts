import type { ZodType } from 'zod';

/**
 * One question of a wizard, declared as data (cli.md "Wizards"): the API field it answers, the flag
 * that answers it without asking, the prompt, and the API's own schema for the field, so the CLI
 * never restates a rule the service enforces.
 */
export interface Question {
  /** The field's path in the request body: `website`, or `brand.ein` for a body with sections. */
  readonly field: string;
  /** The flag that supplies it (`--website`); its name without dashes is also a key in --answers. */
  readonly flag: `--${string}`;
  /** The prompt on a terminal. */
  readonly message: string;
  /**
   * How the answer is typed and read: `number` accepts 1,500; `choice` is a list to pick from; `list`
   * is several texts (a repeatable flag, a YAML list, one prompt per item), held one per line.
   */
  readonly kind: 'text' | 'number' | 'url' | 'choice' | 'list' | 'boolean';
  /** The API's schema for this field (`VerifyTollfreeBody.shape.website`). */
  readonly schema: ZodType;
  /** Required unless the schema accepts no value; set only to be stricter than the API. */
  readonly required?: boolean;
  /** For `choice`: the values offered; by default the schema's enum options. */
  readonly choices?: ReadonlyArray<{ value: string; name?: string }>;
  /**
   * Asked only when this holds for the answers before it (nested by field path): `brand.ein` when
   * the entity type needs one. A question not asked is neither required nor sent.
   */
  readonly when?: (answers: Record<string, unknown>) => boolean;
  /** false: never prompted, only answered by its flag or the answers file (an optional detail). */
  readonly ask?: boolean;
  /**
   * A rule across fields, after the schema: why this value is refused given the checked answers
   * before it, or null. Only for a rule the API states too (a brand's `state` when `country` is US),
   * read from the same definition, so an answer is refused as it is typed rather than at the end.
   */
  readonly acrossFields?: (value: unknown, answers: Record<string, unknown>) => string | null;
  /**
   * Stricter than the API, for a text it stores as given but a registry knows as a list (a brand's
   * vertical): after the schema, the answer as it is sent (in the list's spelling), or why it is refused.
   */
  readonly normalize?: (value: string) => Checked;
}

/** Whether a question applies, given the checked answers before it. */
export function applies(q: Question, answers: Record<string, unknown>): boolean {
  return q.when ? q.when(answers) : true;
}

/** A `list` answer's items, one per line of its text. */
export function listItems(raw: string): string[] {
  return raw
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** Whether a question must be answered: the API's schema decides unless the question says. */
export function isRequired(q: Question): boolean {
  return q.required ?? !q.schema.safeParse(undefined).success;
}

/** An answer as the user gave it (flag, file or prompt) turned into what the schema takes. */
export function coerce(q: Question, raw: string): unknown {
  const text = raw.trim();
  if (text === '') return undefined;
  if (q.kind === 'list') return listItems(raw);
  if (q.kind === 'boolean') {
    if (/^(true|yes|y|1)$/i.test(text)) return true;
    if (/^(false|no|n|0)$/i.test(text)) return false;
    return text;
  }
  if (q.kind === 'number') {
    const digits = text.replace(/[,_\s]/g, '');
    return /^-?\d+(\.\d+)?$/.test(digits) ? Number(digits) : text;
  }
  return raw;
}

export type Checked = { ok: true; value: unknown } | { ok: false; reason: string };

/**
 * Checks one answer with the field's schema, then its rule across fields against the answers before
 * it (when given); the reason reads as a person would say it.
 */
export function checkAnswer(q: Question, raw: string | undefined, answers?: Record<string, unknown>): Checked {
  const value = raw === undefined ? undefined : coerce(q, raw);
  if (value === undefined) return isRequired(q) ? { ok: false, reason: 'required' } : { ok: true, value: undefined };
  if (q.kind === 'number' && typeof value !== 'number') return { ok: false, reason: 'must be a number' };
  const result = q.schema.safeParse(value);
  if (result.success) {
    let data: unknown = result.data;
    if (q.normalize && typeof data === 'string') {
      const normalized = q.normalize(data);
      if (!normalized.ok) return normalized;
      data = normalized.value;
    }
    const across = answers && q.acrossFields ? q.acrossFields(data, answers) : null;
    return across === null ? { ok: true, value: data } : { ok: false, reason: across };
  }
  const issue = result.error.issues[0]!;
  // An item of a list: say which one.
  if (Array.isArray(value) && typeof issue.path[0] === 'number') {
    return { ok: false, reason: `item ${issue.path[0] + 1}: ${describeIssue(issue, value[issue.path[0]])}` };
  }
  return { ok: false, reason: describeIssue(issue, value) };
}

interface IssueLike {
  code: string;
  message: string;
  minimum?: unknown;
  maximum?: unknown;
  expected?: unknown;
  origin?: unknown;
}

/** zod's message, in words for a person (zod says "Too big: expected string to have <=200 characters"). */
export function describeIssue(issue: IssueLike, given: unknown): string {
  if (issue.code === 'invalid_type' && given === undefined) return 'required';
  if (issue.code === 'invalid_type' && issue.expected === 'int') return 'must be a whole number';
  if (issue.code === 'invalid_type' && issue.expected === 'number') return 'must be a number';
  if (typeof given === 'string' || Array.isArray(given)) {
    const unit = typeof given === 'string' ? 'characters' : 'values';
    if (issue.code === 'too_big') return `${given.length} ${unit}; the limit is ${String(issue.maximum)}`;
    if (issue.code === 'too_small' && Number(issue.minimum) === 1) return 'required';
    if (issue.code === 'too_small') return `${given.length} ${unit}; at least ${String(issue.minimum)}`;
  }
  if (typeof given === 'number') {
    if (issue.code === 'too_big') return `must be at most ${String(issue.maximum)}`;
    if (issue.code === 'too_small') return `must be at least ${String(issue.minimum)}`;
  }
  return issue.message;
}

/** The values a `choice` question offers: its own list, or the options of the schema's enum. */
export function choicesOf(q: Question): Array<{ value: string; name?: string }> {
  if (q.choices) return [...q.choices];
  let schema: unknown = q.schema;
  // Through .optional()/.nullable()/.default() wrappers to the enum.
  for (let i = 0; i < 5 && schema; i++) {
    const s = schema as { options?: unknown; unwrap?: () => unknown };
    if (Array.isArray(s.options) && s.options.every((o) => typeof o === 'string')) return (s.options as string[]).map((value) => ({ value }));
    schema = typeof s.unwrap === 'function' ? s.unwrap() : undefined;
  }
  throw new Error(`wizard question ${q.field}: kind "choice" needs choices or an enum schema`);
}

/** The value at a dotted path of a nested object (`brand.ein`). */
export function getPath(obj: Record<string, unknown>, path: string): unknown {
  let cur: unknown = obj;
  for (const key of path.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[key] : undefined;
  return cur;
}

/** Sets a dotted path in a nested object, making the sections on the way. */
export function setPath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let cur = obj;
  for (const key of keys.slice(0, -1)) {
    if (!cur[key] || typeof cur[key] !== 'object') cur[key] = {};
    cur = cur[key] as Record<string, unknown>;
  }
  cur[keys[keys.length - 1]!] = value;
}
