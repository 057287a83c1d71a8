// The wizard machinery of cli.md "Wizards": questions declared as data (questions.ts), answered by
// flags > an answers file > answers saved from an interrupted run > prompts, each checked as it is
// given with the API's own schema for its field. Without a terminal nothing is asked and every
// missing or invalid answer is listed in one usage error.
import type { ZodType, output } from 'zod';
import type { CliContext } from '../context.js';
import { CancelledError, UsageError } from '../errors.js';
import { readAnswersFile, readStartedAt, removeFile, wizardFiles, writeAnswersFile, modifiedAt, type RawAnswers } from './answers-files.js';
import { applies, checkAnswer, choicesOf, describeIssue, getPath, isRequired, listItems, setPath, type Question } from './questions.js';
import { shellLine } from './shell-quote.js';

export type { Question } from './questions.js';

export interface WizardOptions {
  /** Names the saved files and the wizard in messages: `verify-tollfree`. */
  name: string;
  /**
   * What the answers are about (the number): one interrupted run is kept per wizard and subject. A
   * flag that changes how the answers are sent, not what they are (`--mock`), is not part of it.
   */
  subject: string;
  /** The run in a person's words, for the resume offer: `the registration`, `the verification of +1888…`. */
  title: string;
  /** The command's words after `svc`, arguments included, for the equivalent command. */
  command: readonly string[];
  /** Every question of the wizard, in the order asked. */
  questions: readonly Question[];
  /** Answers given as flags, by field path; undefined = not given. */
  flags: Readonly<Record<string, string | undefined>>;
  /** `--answers FILE` (or an alias such as `--from-file`): `flag` names it in errors. */
  answersFile?: { path: string; flag: string };
  /** `--resume`: take the answers saved from an interrupted run without asking. */
  resume?: boolean;
  /**
   * Flags the equivalent command carries so it asks nothing at all (`--yes` where the command
   * confirms a price), after the answers.
   */
  unattended?: readonly string[];
}

type Source = 'flag' | 'file' | 'resumed' | 'prompt';

const NO_PROMPT = 'prompting is off: no terminal, --no-input or CI';

export class Wizard {
  private readonly answers = new Map<string, { raw: string; source: Source }>();
  private readonly values: Record<string, unknown> = {};
  private readonly files: { progress: string; answers: string };
  private savedProgress = false;
  private unresumed?: Date;
  /** When this run's answers began (kept across a resume): said when offering to resume them. */
  private startedAt: Date;
  private checkedAll = false;
  /** Offered answers (a draft): shown as each prompt's default, sent only once the user takes them. */
  private readonly defaults = new Map<string, string>();
  /** The fields the user's --answers file holds (a typed answer that replaces one must say so in the command). */
  private readonly inUserFile = new Set<string>();

  private constructor(
    private readonly ctx: CliContext,
    private readonly opts: WizardOptions,
  ) {
    this.files = wizardFiles(ctx.configDir, opts.name, opts.subject);
    this.startedAt = ctx.now();
  }

  /** Reads the answers given (flags, file) and settles whether to resume an interrupted run. */
  static async start(ctx: CliContext, opts: WizardOptions): Promise<Wizard> {
    const w = new Wizard(ctx, opts);
    await w.load();
    return w;
  }

  /** The command that takes up this run's saved answers (`svc brands register --resume`), once some are saved. */
  get resumeCommand(): string | undefined {
    return this.savedProgress ? `svc ${[...this.opts.command, '--resume'].join(' ')}` : undefined;
  }

  /** Answers are saved on this machine (to resume, to run again): never under `svc mcp`'s pinned settings. */
  private get keepsFiles(): boolean {
    return !this.ctx.pinned;
  }

  private get canPrompt(): boolean {
    return this.ctx.prompter.enabled;
  }

  private say(line: string): void {
    this.ctx.io.stderr.write(`${line}\n`);
  }

  private async load(): Promise<void> {
    const { questions, answersFile } = this.opts;
    const given: RawAnswers = answersFile ? await readAnswersFile(answersFile.path, questions, answersFile.flag) : new Map();
    for (const field of given.keys()) this.inUserFile.add(field);
    for (const q of questions) {
      const flag = this.opts.flags[q.field];
      if (flag !== undefined) given.set(q.field, flag);
    }
    const savedAt = this.keepsFiles ? await modifiedAt(this.files.progress) : undefined;
    const { title } = this.opts;
    if (this.opts.resume && !savedAt) throw new UsageError(`--resume: no answers saved from an interrupted run of ${title}`, '--resume');
    let saved: RawAnswers | undefined;
    const readSaved = async () => (saved ??= await readAnswersFile(this.files.progress, questions, 'saved answers'));
    let resume = false;
    if (savedAt && this.opts.resume) resume = true;
    else if (savedAt && this.canPrompt) {
      // Offered only when something is left to ask: answers given in full need nothing saved.
      const settled = questions.every((q) => given.has(q.field) && checkAnswer(q, given.get(q.field)).ok);
      if (!settled) {
        const started = (await readStartedAt(this.files.progress)) ?? savedAt;
        const { answered, asked } = this.progressOf(await readSaved());
        resume = await this.ctx.prompter.confirm(`Resume ${title} you started ${startedWhen(started, this.ctx.now())} (${answered} of ${asked} answered)?`, { flag: '--resume', default: true });
        if (!resume) await removeFile(this.files.progress);
      }
    } else if (savedAt) this.unresumed = savedAt;
    if (resume) {
      const answers = await readSaved();
      for (const [field, raw] of answers) this.answers.set(field, { raw, source: 'resumed' });
      this.startedAt = (await readStartedAt(this.files.progress)) ?? this.startedAt;
      this.savedProgress = true;
      if (this.opts.resume) this.say(`resuming ${answers.size} saved answer${answers.size === 1 ? '' : 's'} (${this.files.progress})`);
    }
    for (const [field, raw] of given) this.answers.set(field, { raw, source: this.opts.flags[field] !== undefined ? 'flag' : 'file' });
  }

  /**
   * How far saved answers went: how many there are, of the questions the wizard asks with them (a
   * question that applies only to some answers, such as an EIN, counted when it does).
   */
  private progressOf(saved: RawAnswers): { answered: number; asked: number } {
    const values: Record<string, unknown> = {};
    let asked = 0;
    for (const q of this.opts.questions) {
      const raw = saved.get(q.field);
      if (raw !== undefined || (q.ask !== false && applies(q, values))) asked += 1;
      const checked = checkAnswer(q, raw);
      if (checked.ok && checked.value !== undefined) setPath(values, q.field, checked.value);
    }
    return { answered: saved.size, asked };
  }

  /**
   * Asks for what the sources left unanswered (all questions, or a section such as a brand's),
   * checking each answer as it is given; returns every checked answer so far, nested by field path.
   * Without a terminal, the first call checks every question of the wizard and lists all that are
   * missing or invalid in one usage error.
   */
  async ask(questions: readonly Question[] = this.opts.questions): Promise<Record<string, unknown>> {
    if (!this.canPrompt) {
      if (!this.checkedAll) this.requireAll();
      this.checkedAll = true;
      for (const q of questions) if (applies(q, this.values) || this.answers.has(q.field)) this.accept(q, this.answers.get(q.field)?.raw);
      return this.values;
    }
    for (const q of questions) {
      // A question that does not apply is not asked; an answer given to it anyway is still taken.
      if ((q.ask === false || !applies(q, this.values)) && !this.answers.has(q.field)) continue;
      const given = this.answers.get(q.field);
      if (given !== undefined) {
        const checked = checkAnswer(q, given.raw, this.values);
        if (checked.ok) {
          this.accept(q, given.raw);
          continue;
        }
        this.say(`${q.flag}: ${shown(given.raw)}${checked.reason}${given.source === 'flag' ? '' : ` (${given.source === 'file' ? this.opts.answersFile?.flag : 'saved answer'})`}`);
      }
      const raw = await this.prompt(q);
      this.answers.set(q.field, { raw, source: 'prompt' });
      this.accept(q, raw);
      await this.saveProgress();
    }
    return this.values;
  }

  private accept(q: Question, raw: string | undefined): void {
    const checked = checkAnswer(q, raw, this.values);
    if (!checked.ok) throw new UsageError(`${q.flag}: ${shown(raw)}${checked.reason}`, q.flag);
    if (checked.value !== undefined) setPath(this.values, q.field, checked.value);
  }

  private async prompt(q: Question): Promise<string> {
    try {
      if (q.kind === 'choice') {
        const choices = choicesOf(q);
        if (!isRequired(q)) choices.push({ value: '', name: '(none)' });
        return await this.ctx.prompter.select(q.message, choices, { flag: q.flag });
      }
      if (q.kind === 'list') return await this.promptList(q);
      const message = isRequired(q) ? q.message : `${q.message} (Enter to skip)`;
      return await this.ctx.prompter.input(message, {
        flag: q.flag,
        default: this.defaults.get(q.field),
        validate: (v) => {
          const checked = checkAnswer(q, v, this.values);
          return checked.ok ? true : checked.reason;
        },
      });
    } catch (err) {
      if (err instanceof CancelledError && this.savedProgress) {
        this.say(`your answers so far are saved (${this.files.progress}); run the command again to resume them, or add --resume`);
      }
      throw err;
    }
  }

  /**
   * A list, one prompt per item (each checked as the list so far), Enter on an empty line to finish;
   * the whole list is checked again at the end, and asked afresh if the schema refuses it.
   */
  private async promptList(q: Question): Promise<string> {
    const offered = listItems(this.defaults.get(q.field) ?? '');
    for (;;) {
      const items: string[] = [];
      for (;;) {
        const n = items.length + 1;
        const done = items.length > 0 || !isRequired(q);
        const raw = await this.ctx.prompter.input(`${q.message} ${n}${done ? ' (Enter to finish)' : ''}`, {
          flag: q.flag,
          default: offered[items.length],
          validate: (v) => {
            if (v.trim() === '') return done ? true : 'required';
            const checked = checkAnswer(q, [...items, v.replace(/\n/g, ' ')].join('\n'));
            return checked.ok || !checked.reason.startsWith(`item ${n}:`) ? true : checked.reason.slice(`item ${n}: `.length);
          },
        });
        if (raw.trim() === '') break;
        items.push(raw.replace(/\n/g, ' '));
      }
      const checked = checkAnswer(q, items.join('\n'));
      if (checked.ok) return items.join('\n');
      this.say(`${q.flag}: ${checked.reason}`);
    }
  }

  /** Whether a field has an answer that passes its check (from any source). */
  answered(field: string): boolean {
    const q = this.opts.questions.find((x) => x.field === field);
    const a = this.answers.get(field);
    return q !== undefined && a !== undefined && checkAnswer(q, a.raw).ok;
  }

  /** Offers values (a draft) as the prompts' defaults: the user still sees and confirms each. */
  offer(raw: ReadonlyMap<string, string>): void {
    for (const [field, value] of raw) this.defaults.set(field, value);
  }

  /**
   * Takes answers the user accepted as a whole (a draft accepted at a prompt): kept as answers typed
   * at the terminal, so they are saved, and written to the answers file at the end.
   */
  async take(raw: ReadonlyMap<string, string>): Promise<void> {
    for (const [field, value] of raw) this.answers.set(field, { raw: value, source: 'prompt' });
    await this.saveProgress();
  }

  /**
   * Asks these questions again, each with its current answer as the default (fixing a campaign after
   * a low prediction): Enter keeps an answer, typing replaces it.
   */
  async revise(questions: readonly Question[]): Promise<Record<string, unknown>> {
    for (const q of questions) {
      const a = this.answers.get(q.field);
      if (a) this.defaults.set(q.field, a.raw);
      this.answers.delete(q.field);
    }
    return this.ask(questions);
  }

  /** cli.md: without a terminal, all missing or invalid answers together, each with its flag. */
  private requireAll(): void {
    const problems: Array<{ flag: string; line: string }> = [];
    const sofar: Record<string, unknown> = {};
    for (const q of this.opts.questions) {
      if (!applies(q, sofar) && !this.answers.has(q.field)) continue;
      const raw = this.answers.get(q.field)?.raw;
      const checked = checkAnswer(q, raw, sofar);
      if (checked.ok && checked.value !== undefined) setPath(sofar, q.field, checked.value);
      if (!checked.ok) problems.push({ flag: q.flag, line: `${q.flag}: ${shown(raw)}${checked.reason}${raw === undefined ? ` (${q.message})` : ''}` });
    }
    if (!problems.length) return;
    const head = problems.length === 1 ? '1 answer is' : `${problems.length} answers are`;
    const how = `give ${problems.length === 1 ? 'it' : 'them'} as flags or in --answers FILE; ${NO_PROMPT}`;
    const hint = this.unresumed ? `\nanswers saved from an interrupted run (${this.files.progress}): add --resume to use them` : '';
    throw new UsageError(`${head} missing or invalid (${how}):\n${problems.map((p) => `  ${p.line}`).join('\n')}${hint}`, problems[0]!.flag);
  }

  private async saveProgress(): Promise<void> {
    if (!this.keepsFiles) return;
    const raw: RawAnswers = new Map([...this.answers].map(([field, a]) => [field, a.raw]));
    await writeAnswersFile(this.files.progress, raw, this.opts.questions, `answers saved as given to svc ${this.opts.command.join(' ')}, to resume after an interruption`, this.startedAt);
    this.savedProgress = true;
  }

  /**
   * Checks the whole request with the API's schema before anything is sent (rules across fields
   * included): every problem is listed, each with its flag. Returns the body as the schema reads it.
   */
  check<S extends ZodType>(schema: S, body: unknown): output<S> {
    const result = schema.safeParse(body);
    if (result.success) return result.data;
    const byField = [...this.opts.questions].sort((a, b) => b.field.length - a.field.length);
    const problems = result.error.issues.map((issue) => {
      const path = issue.path.map(String).join('.');
      const q = byField.find((x) => path === x.field || path.startsWith(`${x.field}.`));
      const given = getPath(body as Record<string, unknown>, path);
      let message = describeIssue(issue as never, given);
      // A rule across fields names them by their API names (within a section, by the last part of
      // the path): say the flags.
      for (const x of this.opts.questions) {
        const cut = x.field.lastIndexOf('.');
        const inSection = cut < 0 || path.startsWith(`${x.field.slice(0, cut)}.`);
        for (const name of inSection ? [x.field, x.field.slice(cut + 1)] : [x.field]) {
          message = message.replace(new RegExp(`(?<![\\w.-])${name.replace(/\./g, '\\.')}\\b`, 'g'), x.flag);
        }
      }
      return { flag: q?.flag, line: `${q?.flag ?? (path || 'answers')}: ${message}` };
    });
    if (problems.length === 1) throw new UsageError(problems[0]!.line, problems[0]!.flag);
    throw new UsageError(`the answers are not accepted:\n${problems.map((p) => `  ${p.line}`).join('\n')}`, problems[0]!.flag);
  }

  /**
   * After the submission succeeded: drops the progress this run saved or resumed and prints the
   * command that does the same without questions (cli.md: "at the end … the equivalent
   * non-interactive command", whatever the answers came from), on stderr: the answers file, the
   * flags given, and the `unattended` flags (`--yes`).
   *
   * Each run's answers stay apart. A run given `--answers FILE` writes no file: the command names
   * the user's FILE, and an answer typed at a prompt (or resumed) follows it as a flag, which wins
   * over the file. Only a run without one writes the answers it was not given as flags to the
   * wizard's own file (`wizards/NAME-SUBJECT.yaml`), so a scripted run never replaces what a person
   * typed. Progress saved by another, interrupted run is left to be resumed.
   */
  async finish(): Promise<{ command: string; answersFile?: string }> {
    if (this.keepsFiles && this.savedProgress) await removeFile(this.files.progress);
    const userFile = this.opts.answersFile?.path;
    const toWrite: RawAnswers = new Map();
    const flagWords: string[] = [];
    for (const q of this.opts.questions) {
      const a = this.answers.get(q.field);
      if (!a) continue;
      const asFlag = a.source === 'flag' || (userFile !== undefined && a.source !== 'file');
      if (!asFlag) {
        if (userFile === undefined) toWrite.set(q.field, a.raw);
        continue;
      }
      // A question skipped at a prompt needs no flag, unless it replaces an answer of the user's file.
      if (a.source !== 'flag' && a.raw.trim() === '' && !this.inUserFile.has(q.field)) continue;
      const items = q.kind === 'list' ? listItems(a.raw) : [];
      if (items.length) flagWords.push(...items.flatMap((item) => [q.flag, item]));
      else if (q.kind !== 'list' || this.inUserFile.has(q.field)) flagWords.push(q.flag, a.raw);
    }
    const written = toWrite.size > 0 && this.keepsFiles;
    if (written) {
      await writeAnswersFile(this.files.answers, toWrite, this.opts.questions, `answers to svc ${this.opts.command.join(' ')}; run it again with --answers ${this.files.answers}`);
    }
    const global: string[] = [];
    const f = this.ctx.flags;
    if (f.profile) global.push('--profile', f.profile);
    if (f.subaccount) global.push('--subaccount', f.subaccount);
    if (f.baseUrl) global.push('--base-url', f.baseUrl);
    const file = userFile ?? (written ? this.files.answers : undefined);
    const answers = file !== undefined ? ['--answers', file] : [];
    const command = shellLine(['svc', ...global, ...this.opts.command, ...answers, ...flagWords, ...(this.opts.unattended ?? [])]);
    this.say(`the same without questions:\n  ${command}`);
    return { command, ...(written ? { answersFile: this.files.answers } : {}) };
  }
}

/** "at 08:32" today (local time), "on 2026-11-26 at 08:32" another day. */
function startedWhen(started: Date, now: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const at = `at ${two(started.getHours())}:${two(started.getMinutes())}`;
  if (started.toDateString() === now.toDateString()) return at;
  return `on ${started.getFullYear()}-${two(started.getMonth() + 1)}-${two(started.getDate())} ${at}`;
}

/** A short answer is worth repeating in an error; a 1600-character one is not. */
function shown(raw: string | undefined): string {
  return raw !== undefined && raw.trim() !== '' && raw.length <= 60 ? `"${raw}" ` : '';
}
