#!/usr/bin/env node
// Tiny launcher: the CLI is compiled to dist/ so start-up never runs through a TypeScript loader.
// `svc --version` and a bare `svc --help` are answered from build artifacts (dist/cli/version.txt,
// dist/cli/root-help.txt, rendered from the command tree by scripts/render-help.mjs) before
// commander or any command loads. This file is CommonJS (bin/package.json) on purpose: starting
// Node's ESM loader for a static import cost ~14 % of bare node's start-up (bench/startup; the
// budget is 1.3x), so only the commands that need the CLI pay for it, through import().
'use strict';
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const exitWhenFlushed = (code) => {
  // The command is over: exit once stdout and stderr have flushed, rather than waiting for idle
  // keep-alive sockets and timers of the HTTP stack to wind down.
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
};
const artifact = (name) => readFileSync(join(__dirname, '..', 'dist', 'cli', name), 'utf8');

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(artifact('version.txt'));
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  process.stdout.write(artifact('root-help.txt'));
} else if (args[0] === '__complete') {
  // A TAB press (svc completion's scripts): the prebuilt tree, no commander, never an error shown.
  Promise.all([import('../dist/cli/completion/main.js'), import('node:os')])
    .then(([{ completeMain }, { homedir }]) => completeMain(args.slice(1), process, homedir()))
    .then(() => exitWhenFlushed(0), () => exitWhenFlushed(0));
} else {
  import('../dist/cli/main.js')
    .then(({ main }) => main(process, __filename))
    .then(exitWhenFlushed, (err) => {
      process.stderr.write(`svc: ${err?.stack ?? err}\n`);
      exitWhenFlushed(1);
    });
}
