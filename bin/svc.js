#!/usr/bin/env node
// Tiny launcher: the CLI is compiled to dist/ so start-up never runs through a TypeScript loader.
// `svc --version` and a bare `svc --help` are answered before commander or any command loads
// (start-up budget, bench/startup); the help text is rendered from the command tree at build time.
import { readFileSync } from 'node:fs';
import { CLI_VERSION } from '../dist/cli/version.js';

const exitWhenFlushed = (code) => {
  // The command is over: exit once stdout and stderr have flushed, rather than waiting for idle
  // keep-alive sockets and timers of the HTTP stack to wind down.
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
};

const args = process.argv.slice(2);
if (args.length === 1 && args[0] === '--version') {
  process.stdout.write(`${CLI_VERSION}\n`);
} else if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
  process.stdout.write(readFileSync(new URL('../dist/cli/root-help.txt', import.meta.url), 'utf8'));
} else if (args[0] === '__complete') {
  // A TAB press (svc completion's scripts): the prebuilt tree, no commander, never an error shown.
  const { completeMain } = await import('../dist/cli/completion/main.js');
  const { homedir } = await import('node:os');
  completeMain(args.slice(1), process, homedir()).then(() => exitWhenFlushed(0), () => exitWhenFlushed(0));
} else {
  const { main } = await import('../dist/cli/main.js');
  main(process, new URL(import.meta.url).pathname).then(exitWhenFlushed, (err) => {
    process.stderr.write(`svc: ${err?.stack ?? err}\n`);
    exitWhenFlushed(1);
  });
}
