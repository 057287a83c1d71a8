import { describe, it, expect } from 'vitest';
import type { Command } from 'commander';
import { createTestIO } from '../src/output/io.js';
import { fullCommandTree } from '../src/cli/full-tree.js';

// cli.md: every command has --help with at least one example.
// Groups included: `svc numbers --help` shows an example too.
function commands(cmd: Command, path: string[] = []): Array<{ path: string; cmd: Command }> {
  const subs = cmd.commands.filter((c) => c.name() !== 'help');
  return [{ path: path.join(' '), cmd }, ...subs.flatMap((c) => commands(c, [...path, c.name()]))];
}

describe('help', () => {
  it('every command has an example in its --help', async () => {
    const tree = await fullCommandTree({ io: createTestIO(), env: {}, homedir: '/nonexistent', binPath: '' });
    const all = commands(tree);
    expect(all.length).toBeGreaterThan(50);
    const missing = all
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
