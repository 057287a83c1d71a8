import { describe, it, expect } from 'vitest';
import type { Command, Option } from 'commander';
import { createTestIO } from '../src/output/io.js';
import { fullCommandTree } from '../src/cli/full-tree.js';
import { HELP_WIDTH } from '../src/cli/help-text.js';
import { ID_PREFIXES, ID_RANDOM_LENGTH } from '../src/api/values/ids.js';

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

// Every help text, linted as a newcomer reads it.
describe('help lint', () => {
  // A real id: its prefix, `_`, then 20 base62 characters (src/api/values/ids.ts).
  // Not inside a dotted name (`call.ivr.key_pressed` is an event type).
  const ID_TOKEN = new RegExp(`(?<![\\w.])(?:${ID_PREFIXES.join('|')})_[^\\s"'),;]*`, 'g');
  const REAL_ID = new RegExp(`^(?:${ID_PREFIXES.join('|')})_[0-9A-Za-z]{${ID_RANDOM_LENGTH}}$`);
  // Outside examples, `msg_…` names the kind of id a value is; an example shows a real-looking one.
  const PLACEHOLDER = new RegExp(`^(?:${ID_PREFIXES.join('|')})_…$`);

  it('one Examples section, no doubled default, ids shaped like real ones, prose inside 80 columns', async () => {
    // Help as svc prints it at an 80-column terminal: through the program's own output (main.ts).
    const io = createTestIO({ stdoutTTY: true, columns: HELP_WIDTH });
    const tree = await fullCommandTree({ io, env: {}, homedir: '/nonexistent', binPath: '' });
    const problems: string[] = [];
    for (const { path, cmd } of commands(tree)) {
      const before = io.out().length;
      cmd.outputHelp();
      const text = io.out().slice(before);
      for (const o of cmd.options as Option[]) {
        if (o.defaultValue !== undefined && /\(default\b/.test(o.description)) problems.push(`svc ${path}: ${o.long}: doubled default`);
      }
      const where = `svc ${path}`.trim();
      const sections = text.match(/^Examples?:$/gm)?.length ?? 0;
      if (sections > 1) problems.push(`${where}: ${sections} Examples sections`);
      let inExample = false;
      for (const line of text.split('\n')) {
        // An example line, or the continuation of one after a trailing backslash.
        const example: boolean = /^\s+\$ /.test(line) || (inExample && /^\s/.test(line));
        inExample = example && line.endsWith('\\');
        if ((line.match(/\(default\b/g)?.length ?? 0) > 1) problems.push(`${where}: doubled default: ${line.trim()}`);
        for (const id of line.match(ID_TOKEN) ?? []) {
          if (!REAL_ID.test(id) && (example || !PLACEHOLDER.test(id))) problems.push(`${where}: id not shaped like a real one: ${id}`);
        }
        // Prose fits the width (examples are copied whole; indented blocks are aligned as written).
        if (!/^\s/.test(line) && [...line].length > HELP_WIDTH) problems.push(`${where}: wider than ${HELP_WIDTH}: ${line}`);
      }
      // Commander's own sections (usage, arguments, options, commands) fit the width too.
      const core = cmd.helpInformation({ error: false });
      for (const line of core.split('\n')) if ([...line].length > HELP_WIDTH) problems.push(`${where}: wider than ${HELP_WIDTH}: ${line}`);
    }
    expect(problems).toEqual([]);
  });
});
