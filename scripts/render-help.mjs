#!/usr/bin/env node
// Build step: renders `svc --help` from the command tree into dist/cli/root-help.txt, and the
// version into dist/cli/version.txt, which bin/svc.js prints for a bare `svc --help` or `--version`
// without loading commander, any command module or even the ESM loader: those alone cost ~1.3x bare
// node start-up (bench/startup). A test checks both equal the live answers, so they never drift.
import { writeFileSync } from 'node:fs';
import { createTestIO } from '../dist/output/io.js';
import { runCli } from '../dist/cli/main.js';
import { CLI_VERSION } from '../dist/cli/version.js';

const io = createTestIO({ stdoutTTY: false, columns: 80 });
const code = await runCli(['--help'], { io, env: {}, homedir: '/nonexistent', binPath: '' });
if (code !== 0) throw new Error(`svc --help exited ${code}: ${io.err()}`);
writeFileSync(new URL('../dist/cli/root-help.txt', import.meta.url), io.out());
writeFileSync(new URL('../dist/cli/version.txt', import.meta.url), `${CLI_VERSION}\n`);
