import type { Command, Option } from 'commander';
import { ENVIRONMENT_VARIABLES, FILES } from './environment.js';
import { exitStatusLines } from './exit-codes.js';
import { examplesOf } from './help-examples.js';

// Completions and man pages, generated from the command tree: one source for every document.

interface Node {
  name: string;
  summary: string;
  options: Option[];
  children: Node[];
  args: string[];
  /** The `$ svc …` lines of the command's own help (its "Examples:" block). */
  examples: string[];
}

export function treeOf(cmd: Command): Node {
  return {
    name: cmd.name(),
    summary: cmd.description(),
    // Hidden options are internal (e.g. --detached-child): not documented, not completed.
    options: (cmd.options as Option[]).filter((o) => !o.hidden),
    args: cmd.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`)),
    children: cmd.commands.filter((c) => c.name() !== 'help').map(treeOf),
    examples: examplesOf(cmd),
  };
}

// The completion scripts are thin: at each TAB they ask `svc __complete <shell> <words…>`, which
// reads the command tree built with the package (completion/tree.ts), so global flags anywhere,
// flag values and ids from the local service complete the same in every shell.

export function bashCompletion(): string {
  return `# bash completion for svc (svc completion bash)
_svc() {
  local cur=\${COMP_WORDS[COMP_CWORD]} line quoted
  [ "$cur" = "=" ] && cur=""
  COMPREPLY=()
  # One candidate a line, kept as text: compgen -W would run a $(…) or expand a glob in a value
  # (a sub-account's name). Each is quoted for the command line (a name with spaces stays one word).
  # bash splits --flag=value into three words; svc __complete reads them that way.
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    printf -v quoted %q "$line"
    if [[ $quoted == "$cur"* ]]; then COMPREPLY+=("$quoted"); fi
  done < <(svc __complete bash "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
}
complete -o nosort -F _svc svc 2>/dev/null || complete -F _svc svc
`;
}

export function zshCompletion(): string {
  return `#compdef svc
# zsh completion for svc (svc completion zsh)
_svc() {
  local -a candidates
  candidates=("\${(@f)$(svc __complete zsh "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  candidates=("\${(@)candidates:#}")
  (( \${#candidates} )) && _describe -t values 'svc' candidates
}
if (( $+functions[compdef] )); then compdef _svc svc; fi
`;
}

export function fishCompletion(): string {
  return `# fish completion for svc (svc completion fish)
# "$(…)" keeps an empty current word as one argument (a bare (…) would drop it).
complete -c svc -f -a '(svc __complete fish (commandline -opc)[2..-1] "$(commandline -ct)")'
`;
}

const roff = (s: string): string => s.replace(/\\/g, '\\e').replace(/^\./gm, '\\&.').replace(/-/g, '\\-');

/**
 * The date in every page's `.TH` line (mandoc -Tlint wants one). Fixed, not today's date, so the
 * generated pages are reproducible (`npm run docs:check`); move it when the pages change in substance.
 */
export const MAN_DATE = '2026-11-22';

function manOptions(opts: Option[]): string {
  return opts.map((o) => `.TP\n.B ${roff(o.flags)}\n${roff(o.description)}${o.defaultValue !== undefined && typeof o.defaultValue !== 'object' ? ` (default: ${roff(String(o.defaultValue))})` : ''}`).join('\n');
}

const manList = (items: readonly { name: string; description: string }[], bold = true): string =>
  items.map((i) => `.TP\n${bold ? '.B' : '.I'} ${roff(i.name)}\n${roff(i.description)}`).join('\n');

function manExamples(lines: string[]): string {
  if (!lines.length) return '';
  return `.SH EXAMPLES\n${lines.map((l, i) => `${i ? '.PP\n' : ''}.EX\n$ ${roff(l)}\n.EE`).join('\n')}\n`;
}

/** The sections every page ends with: EXIT STATUS, ENVIRONMENT, FILES (the same facts, one source each). */
function manCommonSections(): string {
  return (
    `.SH EXIT STATUS\n${manList(exitStatusLines().map((l) => ({ name: String(l.code), description: l.meaning })))}\n` +
    `.SH ENVIRONMENT\n${manList(ENVIRONMENT_VARIABLES)}\n` +
    `.SH FILES\n${manList(FILES, false)}\n`
  );
}

/** man/svc.1 and man/svc-<group>.1, roff generated from the tree. */
export function manPages(root: Node, version: string): Record<string, string> {
  const head = (name: string, summary: string) => `.TH ${name.toUpperCase()} 1 ${MAN_DATE} "svc ${version}" "svc manual"\n.SH NAME\n${name} \\- ${roff(summary)}\n`;
  const pages: Record<string, string> = {};
  pages['svc.1'] =
    head('svc', root.summary) +
    `.SH SYNOPSIS\n.B svc\n\\fI<command>\\fR \\fI<verb>\\fR [options]\n.SH COMMANDS\n` +
    root.children.map((g) => `.TP\n.B ${g.name}\n${roff(g.summary)}. See \\fBsvc\\-${g.name}\\fR(1).`).join('\n') +
    `\n.SH GLOBAL OPTIONS\n${manOptions(root.options)}\n` +
    manExamples(root.examples) +
    manCommonSections();
  for (const g of root.children) {
    let text = head(`svc-${g.name}`, g.summary) + `.SH SYNOPSIS\n.B svc ${g.name}\n${g.children.length ? '\\fI<verb>\\fR ' : ''}${roff(g.args.join(' '))} [options]\n`;
    if (g.options.length) text += `.SH OPTIONS\n${manOptions(g.options)}\n`;
    if (g.children.length) {
      text += '.SH VERBS\n';
      for (const v of g.children) {
        text += `.SS ${v.name} ${roff(v.args.join(' '))}\n${roff(v.summary)}\n${manOptions(v.options)}\n`;
        // A verb named with several words (`sink create`) under its sub-group's entry.
        for (const sub of v.children) text += `.SS ${v.name} ${sub.name} ${roff(sub.args.join(' '))}\n${roff(sub.summary)}\n${manOptions(sub.options)}\n`;
      }
    }
    // A group's own help repeats its verbs' first examples: each example once.
    text += manExamples([...new Set([...g.examples, ...g.children.flatMap((v) => [...v.examples, ...v.children.flatMap((sub) => sub.examples)])])]);
    text += manCommonSections();
    text += '.SH SEE ALSO\n\\fBsvc\\fR(1)\n';
    pages[`svc-${g.name}.1`] = text;
  }
  return pages;
}
