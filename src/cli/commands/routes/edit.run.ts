// `svc routes edit` (cli.md "Routes as code"): the document in $VISUAL/$EDITOR/vi, validated
// locally then by the service, re-opened on errors, shown as a plan and confirmed, sent with the
// ETag of the route the plan was computed against as If-Match so a concurrent change is never
// overwritten.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CliContext } from '../../context.js';
import { notice } from '../../command-kit.js';
import { CancelledError, CliError, DeclinedError, UsageError } from '../../errors.js';
import { EXIT } from '../../exit-codes.js';
import { numberRef } from '../../phone-numbers.js';
import type { ApiClient } from '../../../api/client/client.js';
import { ApiError } from '../../../api/client/errors.js';
import { getRoute, putRoute } from '../../../api/resources/routes.js';
import type { PutRouteInput } from '../../../api/schemas/routes.js';
import { writeAndDrain } from '../../../output/io.js';
import { formatPath, lineForPath, parseRouteDocument, planRoute, renderPlan, renderYaml, routeToDocument, type DocumentProblem } from './document.js';
import { editHeader, ROUTE_TEMPLATE } from './edit-header.js';
import { printRoute } from './print-route.js';

export interface EditRouteOptions {
  number: string;
}

/** Our error comments: stripped from what the user saved before it is read again. */
const ERROR_MARK = '# error: ';
const stripErrors = (text: string): string =>
  text
    .split('\n')
    .filter((l) => !l.trimStart().startsWith(ERROR_MARK))
    .join('\n');

/** A problem as one line: `line 26: destinations[1].stage: …`. */
const problemLine = (p: DocumentProblem, line = p.line): string => `${line !== undefined ? `line ${line}: ` : ''}${p.path}: ${p.message}`;

/**
 * The user's text with the problems at the top and above each offending line. The top names each
 * line where it is in THIS file, below the top and the comments added above it (not the line
 * of the text as saved, which is three lines off).
 */
function annotate(text: string, problems: readonly DocumentProblem[]): string {
  const lines = text.split('\n');
  const located = problems.filter((p) => p.line !== undefined);
  const topLength = 1 + problems.length;
  const textLines = lines.length;
  const lineInFile = (line: number): number => topLength + Math.min(line, textLines + 1) + located.filter((q) => q.line! <= line).length;
  for (const p of [...located].sort((a, b) => b.line! - a.line!)) {
    const at = Math.min(p.line! - 1, lines.length);
    const indent = /^\s*/.exec(lines[at] ?? '')![0];
    lines.splice(at, 0, `${indent}${ERROR_MARK}${p.path}: ${p.message}`);
  }
  const top = [
    `${ERROR_MARK}not sent: ${problems.length} problem${problems.length === 1 ? '' : 's'}. Fix and save; save unchanged to give up (your text is kept).`,
    ...problems.map((p) => `${ERROR_MARK}  ${problemLine(p, p.line === undefined ? undefined : lineInFile(p.line))}`),
  ];
  return [...top, ...lines].join('\n');
}

/** A `validation_error` from the service as problems on the user's text (its details name body paths). */
function serviceProblems(err: ApiError, text: string): DocumentProblem[] | undefined {
  if (err.code !== 'validation_error') return undefined;
  const details = Array.isArray(err.details) ? (err.details as Array<{ path?: unknown[]; message?: string }>) : [];
  const problems = details
    .filter((d) => Array.isArray(d.path) && d.path[0] === 'body')
    .map((d) => {
      const path = d.path!.slice(1) as PropertyKey[];
      return { path: formatPath(path) || '(document)', message: d.message ?? err.message, line: lineForPath(text, path) };
    });
  return problems.length ? problems : [{ path: '(document)', message: err.message }];
}

/** The route as the plan's base: its document (null: no route yet) and the ETag to send back. */
interface Base {
  document: PutRouteInput | null;
  etag: string | undefined;
}

async function readBase(reader: ApiClient, number: string): Promise<Base> {
  const { data, etag } = await getRoute(reader, number);
  return { document: data.route === null ? null : routeToDocument(data.route), etag };
}

/** By the ETag (the service always answers one); by content only if a service answered none. */
const changedSince = (before: Base, now: Base): boolean =>
  before.etag !== undefined || now.etag !== undefined ? before.etag !== now.etag : JSON.stringify(before.document) !== JSON.stringify(now.document);

const changedWhileEditing = (number: string): string =>
  `the route of ${number} changed on the service while you were editing; the plan below is against the route saved now ` +
  `(your file replaces it whole: a part changed there that your file does not match shows as a change, and would be undone)`;

function runEditor(ctx: CliContext, file: string): Promise<number> {
  const editor = ctx.env.VISUAL || ctx.env.EDITOR || 'vi';
  // Through the shell, as git does: EDITOR may carry arguments (`code --wait`).
  const env = Object.fromEntries(Object.entries(ctx.env).filter((e): e is [string, string] => e[1] !== undefined));
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, editor, file], { stdio: 'inherit', env });
    child.on('error', (err) => reject(new CliError(`cannot start the editor (${editor}): ${err.message}`)));
    child.on('close', (code) => resolve(code ?? 1));
  });
}

export async function runEdit(ctx: CliContext, opts: EditRouteOptions): Promise<void> {
  const number = numberRef(opts.number);
  if (!ctx.canPrompt) {
    throw new UsageError(
      `svc routes edit opens an editor and needs a terminal (not with --no-input, CI set or no TTY); send a file instead: svc routes get ${number} -o yaml > route.yaml, then svc routes apply ${number} -f route.yaml`,
    );
  }
  const client = await ctx.client();
  // Under --dry-run the reads are still made (the document to edit, the base of the plan); the PUT
  // is only shown.
  const reader = await ctx.readClient();
  let base = await readBase(reader, number);
  const body = base.document === null ? ROUTE_TEMPLATE.join('\n') + '\n' : await renderYaml(base.document);
  const original = `${editHeader(number).join('\n')}\n\n${body}`;

  const dir = await mkdtemp(join(ctx.env.TMPDIR || tmpdir(), 'svc-route-'));
  const file = join(dir, `route-${number.replace(/[^A-Za-z0-9_-]/g, '')}.yaml`);
  const applyCommand = `svc routes apply ${number} -f ${file}`;
  /** Leaves the user's text on disk (without our error comments) and says how to send it. */
  const keep = async (text: string): Promise<string> => {
    await writeFile(file, stripErrors(text));
    return `your edit is kept in ${file}; send it with: ${applyCommand}`;
  };

  let written = original;
  // The problems of the text last reopened; said on stderr only if the user gives up on them: said
  // before the editor reopens, they would stay on screen above the plan of a good re-edit.
  let pending: readonly DocumentProblem[] = [];
  let annotated = false;
  for (;;) {
    await writeFile(file, written);
    const status = await runEditor(ctx, file);
    const saved = await readFile(file, 'utf8');
    if (status !== 0) throw new CliError(`the editor exited with status ${status}; nothing was sent. ${await keep(saved)}`);
    if (saved === written) {
      if (!annotated) {
        await rm(dir, { recursive: true, force: true });
        notice(ctx, 'no changes');
        return;
      }
      const said = pending.map((p) => `\n  ${problemLine(p)}`).join('');
      throw new CliError(`gave up; nothing was sent. ${await keep(saved)}${said ? `\nthe problems (lines of the kept file):${said}` : ''}`);
    }
    const text = stripErrors(saved);
    const parsed = parseRouteDocument(text);
    if (!parsed.ok && parsed.empty) {
      await rm(dir, { recursive: true, force: true });
      throw new DeclinedError('cancelled: the file was saved empty; nothing was sent');
    }
    let problems = parsed.ok ? undefined : parsed.problems;
    if (parsed.ok) {
      // Plan against the route saved NOW, as terraform plans against the current state: the route
      // may have changed while the editor was open, and a plan against the version read before it
      // would hide that change from the person confirming, only to fail with a conflict after they
      // said yes. The file replaces the route whole, so the other change shows in the plan (undone
      // where the file does not match it), said on stderr first.
      const now = await readBase(reader, number);
      const changedElsewhere = changedSince(base, now);
      if (changedElsewhere) notice(ctx, changedWhileEditing(number));
      base = now;
      const plan = planRoute(base.document, parsed.body);
      if (!plan.lines.length) {
        await rm(dir, { recursive: true, force: true });
        notice(ctx, 'no changes');
        return;
      }
      await writeAndDrain(ctx.io.stdout, renderPlan(plan));
      // With --yes nobody reads that plan before it is applied: the other change would be undone
      // unreviewed, so it is refused as the conflict it is (exit 5), the edit kept to apply after a look.
      if (changedElsewhere && ctx.flags.yes && !ctx.flags.dryRun) {
        throw new CliError(
          `conflict: the route of ${number} changed on the service while you were editing, and --yes confirms unread; nothing was overwritten. ${await keep(text)} (see the difference first: svc routes diff ${number} -f ${file})`,
          EXIT.conflict,
        );
      }
      try {
        await ctx.confirm(`Apply this change to the route of ${number}?`);
      } catch (err) {
        if (err instanceof DeclinedError) throw new DeclinedError(`not confirmed; nothing was sent. ${await keep(text)}`);
        // Ctrl-C at the prompt is giving up too (cli.md: the edited text is kept, the apply command
        // printed); still exit 130, and the temp file is not left behind unnamed.
        if (err instanceof CancelledError) throw new CancelledError(`cancelled; nothing was sent. ${await keep(text)}`);
        throw err;
      }
      try {
        // contract §5 extension: If-Match with the ETag the plan was computed against; a change made
        // after the plan (while the prompt waited) is a 409 conflict, never overwritten.
        const saved = await putRoute(client, number, parsed.body, base.etag === undefined ? {} : { ifMatch: base.etag });
        await rm(dir, { recursive: true, force: true });
        await printRoute(ctx, number, saved.data);
        return;
      } catch (err) {
        if (!(err instanceof ApiError)) throw err;
        problems = serviceProblems(err, text);
        if (!problems) {
          const kept = await keep(text);
          err.hint =
            err.code === 'conflict'
              ? `the route of ${number} changed on the service since the plan was shown; nothing was overwritten. ${kept} (see the difference first: svc routes diff ${number} -f ${file})`
              : kept;
          throw err;
        }
      }
    }
    pending = problems!;
    written = annotate(text, problems!);
    annotated = true;
  }
}
