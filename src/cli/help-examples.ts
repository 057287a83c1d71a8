import type { Command } from 'commander';

// Examples live once, in each verb's own help. A group's help shows the first example of each of
// its verbs (cli.md: every command's --help carries an example), and the man pages gather them all.

/** The `$ svc …` examples of a command's --help, as a user sees them (after-help text included). */
export function examplesOf(cmd: Command): string[] {
  let text = '';
  const saved = (cmd as unknown as { _outputConfiguration: object })._outputConfiguration;
  cmd.configureOutput({ writeOut: (s) => void (text += s), writeErr: (s) => void (text += s) });
  try {
    cmd.outputHelp();
  } finally {
    (cmd as unknown as { _outputConfiguration: object })._outputConfiguration = saved;
  }
  const block = /Examples?:\n((?:[ \t]+\S.*\n?)+)/.exec(text);
  const examples: string[] = [];
  for (const line of (block?.[1] ?? '').split('\n').map((l) => l.trim())) {
    if (line.startsWith('$ ')) examples.push(line.slice(2));
    // A long example goes on after a trailing backslash: keep it whole.
    else if (line && examples.length && examples[examples.length - 1]!.endsWith('\\')) examples[examples.length - 1] += `\n    ${line}`;
  }
  return examples;
}

/**
 * Adds to a group's help the first example of each verb, computed when the help is shown; unless
 * the group has examples of its own (`svc trigger`): one Examples section per help.
 */
export function addGroupExamples(group: Command): void {
  let reading = false;
  group.addHelpText('after', () => {
    // The group's own help, read without this section (the read comes back here: say nothing then).
    if (reading) return '';
    reading = true;
    let own: string[];
    try {
      own = examplesOf(group);
    } finally {
      reading = false;
    }
    if (own.length) return '';
    const lines = group.commands
      .filter((verb) => verb.name() !== 'help')
      .map((verb) => examplesOf(verb)[0])
      .filter((e): e is string => e !== undefined);
    return lines.length ? `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}` : '';
  });
}
