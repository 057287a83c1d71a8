import { describe, it, expect } from 'vitest';
import type { Command } from 'commander';
import { createTestIO } from '../src/output/io.js';
import { fullCommandTree } from '../src/cli/full-tree.js';

// cli.md: every command has --help with at least one example.
function leaves(cmd: Command, path: string[] = []): Array<{ path: string; cmd: Command }> {
  const subs = cmd.commands.filter((c) => c.name() !== 'help');
  if (!subs.length) return [{ path: path.join(' '), cmd }];
  return subs.flatMap((c) => leaves(c, [...path, c.name()]));
}

describe('help', () => {
  it('every command has an example in its --help', async () => {
    const tree = await fullCommandTree({ io: createTestIO(), env: {}, homedir: '/nonexistent', binPath: '' });
    const missing = leaves(tree)
      .filter(({ cmd }) => {
        let text = '';
        cmd.configureOutput({ writeOut: (s) => (text += s), writeErr: (s) => (text += s) });
        cmd.outputHelp();
        return !/Examples?:\n\s+\$ svc /.test(text);
      })
      .map((l) => l.path);
    expect(missing).toEqual([]);
  });
});
