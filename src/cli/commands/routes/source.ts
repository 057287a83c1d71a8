// Reading a route document from `-f FILE|-` (apply, diff): the text, checked with the API's own
// PUT-body schema; every problem is named by its YAML path and line (exit 2). Run modules only.
import { readFile } from 'node:fs/promises';
import type { CliContext } from '../../context.js';
import { UsageError } from '../../errors.js';
import { readStdin } from '../../read-stdin.js';
import type { PutRouteInput } from '../../../api/schemas/routes.js';
import { parseRouteDocument, problemLine } from './document.js';

export async function readRouteFile(ctx: CliContext, file: string): Promise<{ body: PutRouteInput; source: string }> {
  const source = file === '-' ? '(stdin)' : file;
  let text: string;
  try {
    text = file === '-' ? await readStdin(ctx.io, '--file') : await readFile(file, 'utf8');
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`--file: cannot read ${file}: ${(err as Error).message}`, '--file');
  }
  const parsed = parseRouteDocument(text);
  if (parsed.ok) return { body: parsed.body, source };
  if (parsed.empty) throw new UsageError(`--file: ${source} is empty`, '--file');
  const n = parsed.problems.length;
  throw new UsageError(
    `--file: ${source} is not a valid route (${n} problem${n === 1 ? '' : 's'}):\n${parsed.problems.map((p) => `  ${problemLine(p, source)}`).join('\n')}`,
    '--file',
  );
}
