#!/usr/bin/env node
// Tiny launcher: the CLI is compiled to dist/ so start-up never runs through a TypeScript loader.
import { main } from '../dist/cli/main.js';

main(process, new URL(import.meta.url).pathname).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`svc: ${err?.stack ?? err}\n`);
    process.exitCode = 1;
  },
);
