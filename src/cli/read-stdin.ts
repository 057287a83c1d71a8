import type { IO } from '../output/io.js';
import { UsageError } from './errors.js';

/** Reads all of stdin as text (for --api-key-stdin, --body-file -, --input -). */
export async function readStdin(io: IO, flag: string): Promise<string> {
  if (!io.stdin) throw new UsageError(`${flag}: no standard input`, flag);
  const chunks: Buffer[] = [];
  for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
