// The README's figures, each from the command that prints it: the package's size and file count
// from `npm pack --dry-run --json` (compared here, within a tolerance the next few commits stay
// inside), the testing kit's times from `npm run bench:testing` (a time is never asserted in a test:
// here, that the README names the bench and the bench prints each quantity the README gives).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { assertBuilt, REPO_ROOT } from './helpers/cli.js';

const README = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').replace(/\n/g, ' ');
/** How far a README figure may drift from the measure before the README must be updated. */
const TOLERANCE = 0.15;
const MB = 1_000_000;

const near = (said: number, measured: number) => Math.abs(said - measured) <= measured * TOLERANCE;

describe('README figures', () => {
  it('the package: packed and unpacked size and file count, as npm pack --dry-run --json prints them', () => {
    assertBuilt();
    const said = /about ([\d.]+) MB packed, ([\d.]+) MB unpacked, about (\d+) files, as `npm pack --dry-run --json` prints them/.exec(README);
    expect(said, 'the README gives the package figures and their command').not.toBeNull();
    // --ignore-scripts: measure the build as it is (no prepack rebuild).
    const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    const pack = (JSON.parse(out) as { size: number; unpackedSize: number; entryCount: number }[])[0]!;
    const [, packed, unpacked, files] = said!.map(Number);
    expect(near(packed! * MB, pack.size), `packed: README ${packed} MB, npm pack ${(pack.size / MB).toFixed(2)} MB`).toBe(true);
    expect(near(unpacked! * MB, pack.unpackedSize), `unpacked: README ${unpacked} MB, npm pack ${(pack.unpackedSize / MB).toFixed(2)} MB`).toBe(true);
    expect(near(files!, pack.entryCount), `files: README ${files}, npm pack ${pack.entryCount}`).toBe(true);
  }, 60_000);

  it('the testing kit\'s times name the bench that prints them, and it prints each one', () => {
    const sentence = /ready in about \d+ ms; the first in a process also loads the server, about a second more \(`npm run bench:testing` prints both, and `reset\(\)`/.exec(README);
    expect(sentence, 'the README gives startService times with their bench').not.toBeNull();
    const scripts = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
    expect(scripts['bench:testing']).toMatch(/bench\/testing\.mjs/);
    const bench = readFileSync(join(REPO_ROOT, 'bench', 'testing.mjs'), 'utf8');
    for (const label of ['startService() first', 'startService() to ready', 'reset() after writes']) expect(bench).toContain(label);
    // The reset figure in the setup file's comment comes from the same bench.
    expect(README).toMatch(/reset\(\)\); \/\/ back to the seeded state, about \d+ ms/);
  });
});
