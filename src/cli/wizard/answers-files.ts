import { mkdir, readFile, rename, rm, stat, writeFile, chmod } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import { UsageError } from '../errors.js';
import { listItems, setPath, type Question } from './questions.js';

/** Answers as given, by API field path (`website`, `brand.ein`): text until checked. */
export type RawAnswers = Map<string, string>;

/**
 * Reads an answers file (`--answers FILE.yaml`, YAML or JSON): a mapping whose keys are the API's
 * field names, nested by section (`brand: {ein: …}`), or the flags' names (`business-name`).
 * `label` names the flag the file came from in errors.
 */
export async function readAnswersFile(file: string, questions: readonly Question[], label: string): Promise<RawAnswers> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${label}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`, label);
  }
  let data: unknown;
  try {
    data = parseYaml(text);
  } catch (err) {
    throw new UsageError(`${label}: ${file} is not valid YAML or JSON: ${(err as Error).message.split('\n')[0]}`, label);
  }
  const out: RawAnswers = new Map();
  if (data === null || data === undefined) return out;
  const known = questions.map((q) => q.field);
  const byFlag = new Map(questions.map((q) => [q.flag.slice(2), q.field]));
  const walk = (obj: unknown, prefix: string): void => {
    if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) {
      throw new UsageError(`${label}: ${prefix ? `${prefix} in ${file}` : file} must be a mapping of fields (${known[0]}: …)`, label);
    }
    for (const [name, value] of Object.entries(obj as Record<string, unknown>)) {
      const path = prefix ? `${prefix}.${name}` : name;
      const field = known.includes(path) ? path : prefix === '' ? byFlag.get(name) : undefined;
      if (field === undefined) {
        if (known.some((k) => k.startsWith(`${path}.`))) {
          if (value !== null && value !== undefined) walk(value, path);
          continue;
        }
        throw new UsageError(`${label}: unknown field "${path}" in ${file}; known: ${known.join(', ')}`, label);
      }
      if (value === null || value === undefined) continue;
      if (Array.isArray(value) && questions.find((q) => q.field === field)?.kind === 'list') {
        if (!value.every((v) => typeof v === 'string' || typeof v === 'number')) throw new UsageError(`${label}: ${path} in ${file} must be a list of texts`, label);
        out.set(field, value.map((v) => String(v).replace(/\n/g, ' ')).join('\n'));
        continue;
      }
      if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') {
        throw new UsageError(`${label}: ${path} in ${file} must be text`, label);
      }
      out.set(field, String(value));
    }
  };
  walk(data, '');
  return out;
}

/** The answers as a nested mapping, the shape --answers reads (and the API's body has). */
export function answersDocument(answers: RawAnswers, questions: readonly Question[]): Record<string, unknown> {
  const doc: Record<string, unknown> = {};
  // In question order, so the file reads like the wizard.
  for (const q of questions) {
    const raw = answers.get(q.field);
    if (raw !== undefined) setPath(doc, q.field, q.kind === 'list' ? listItems(raw) : raw);
  }
  return doc;
}

/** The comment line of a progress file that says when its run began (a comment: --answers ignores it). */
const STARTED = 'started ';

/**
 * Writes answers as YAML, readable by owner only (0600: answers can be personal), through a temporary
 * file so an interruption never leaves half a file. `startedAt`: when the run began, kept in a comment.
 */
export async function writeAnswersFile(file: string, answers: RawAnswers, questions: readonly Question[], comment: string, startedAt?: Date): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const lines = [...comment.split('\n'), ...(startedAt ? [`${STARTED}${startedAt.toISOString()}`] : [])];
  const text = `${lines.map((l) => `# ${l}`).join('\n')}\n${stringifyYaml(answersDocument(answers, questions))}`;
  const tmp = `${file}.${process.pid}.tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}

/** Where a wizard keeps answers: the config dir's `wizards/`, one pair of files per wizard and subject. */
export function wizardFiles(configDir: string, name: string, subject: string): { progress: string; answers: string } {
  const base = join(configDir, 'wizards', `${name}-${subject.replace(/[^A-Za-z0-9+_.@-]/g, '_')}`);
  return { progress: `${base}.partial.yaml`, answers: `${base}.yaml` };
}

/** When the run that saved `file` began, from its comment; undefined when it does not say (or is gone). */
export async function readStartedAt(file: string): Promise<Date | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return undefined;
  }
  const m = new RegExp(`^# ${STARTED}(\\S+)$`, 'm').exec(text);
  const at = m ? new Date(m[1]!) : undefined;
  return at && !Number.isNaN(at.getTime()) ? at : undefined;
}

export async function modifiedAt(file: string): Promise<Date | undefined> {
  try {
    return (await stat(file)).mtime;
  } catch {
    return undefined;
  }
}

export async function removeFile(file: string): Promise<void> {
  await rm(file, { force: true });
}
