#!/usr/bin/env node
// Build step: renders `svc --help` from the command tree into dist/cli/root-help.txt, which
// bin/svc.js prints for a bare `svc --help` without loading commander or any command module: the
// ESM loader and commander alone cost ~1.3x bare node start-up (bench/startup). A test checks the
// file equals the live help, so it can never drift from the tree.
import { writeFileSync } from 'node:fs';
import { createTestIO } from '../dist/output/io.js';
import { runCli } from '../dist/cli/main.js';

const io = createTestIO({ stdoutTTY: false, columns: 80 });
const code = await runCli(['--help'], { io, env: {}, homedir: '/nonexistent', binPath: '' });
if (code !== 0) throw new Error(`svc --help exited ${code}: ${io.err()}`);
writeFileSync(new URL('../dist/cli/root-help.txt', import.meta.url), io.out());
