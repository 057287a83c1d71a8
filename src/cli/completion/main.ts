import { readFileSync } from 'node:fs';
import { complete, formatCandidates } from './complete.js';
import { createLookup } from './lookup.js';
import type { CompletionTree } from './tree.js';

/**
 * `svc __complete <shell> <word>…`: the shell scripts of `svc completion` call this at every TAB,
 * with the words after `svc` up to the cursor. Loaded by bin/svc.js without commander or any
 * command module; prints candidates, one a line, and never fails loudly (a TAB prints no errors).
 */
export async function completeMain(args: string[], proc: { env: NodeJS.ProcessEnv; stdout: NodeJS.WriteStream; platform: string }, homedir: string): Promise<void> {
  const [shell = 'bash', ...words] = args;
  const tree = JSON.parse(readFileSync(new URL('../completion-tree.json', import.meta.url), 'utf8')) as CompletionTree;
  const configFlag = words.indexOf('--config-dir');
  const lookup = createLookup({ env: proc.env, homedir, platform: proc.platform, configDir: configFlag >= 0 ? words[configFlag + 1] : undefined }, tree.lookups);
  const candidates = await complete(tree, words.length ? words : [''], lookup);
  proc.stdout.write(formatCandidates(shell, candidates));
}
