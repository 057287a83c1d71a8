// The README's walkthrough, run as written: each command in order, in bash, from an empty HOME,
// with `svc` on PATH as `npm link` puts it (issue 8: a new user's first steps must not dead-end).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN_PATH, REPO_ROOT } from './helpers/cli.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'svc-walkthrough-'));

/** The shell block between the walkthrough markers. */
function walkthrough(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- walkthrough:start -->\s*```sh\n([\s\S]*?)```\s*<!-- walkthrough:end -->/.exec(readme);
  if (!block) throw new Error('README.md has no walkthrough block between its markers');
  return block[1]!;
}

afterAll(() => {
  // Whatever happened, no service is left running.
  const pidFile = join(home, '.local', 'share', 'svc', 'server.json');
  if (existsSync(pidFile)) {
    try {
      process.kill((JSON.parse(readFileSync(pidFile, 'utf8')) as { pid: number }).pid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
  rmSync(home, { recursive: true, force: true });
});

describe('README walkthrough', () => {
  it('runs as written from an empty home directory', async () => {
    assertBuilt();
    const script = walkthrough();
    const lines = script.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(lines.length).toBeGreaterThan(8);
    const bin = join(home, 'bin');
    mkdirSync(bin);
    symlinkSync(BIN_PATH, join(bin, 'svc'));
    // Only what a fresh login shell has: no SVC_* from the test run, a HOME of its own, CI as given.
    const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: home, LANG: 'C.UTF-8' };
    if (process.env.CI) env.CI = process.env.CI;
    let out: { stdout: string; stderr: string };
    try {
      // -x: the log shows which command failed, if one does.
      out = await run('bash', ['-euo', 'pipefail', '-x', '-c', script], { env, cwd: home, timeout: 120_000, maxBuffer: 10 * 1024 * 1024 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`the walkthrough failed: ${e.message}\n--- stdout\n${e.stdout}\n--- stderr\n${e.stderr}`);
    }
    // What the walk did, checked from its own output.
    expect(out.stdout).toMatch(/"status": "delivered"|delivered/);
    expect(out.stderr).toContain('+ svc server stop');
    expect(out.stderr).toContain('stopped the local service');
    // The simulated call was answered and its end reported.
    expect(out.stdout).toMatch(/answered\s+by pstn \+14155550123/);
    expect(out.stdout).toMatch(/call\.completed/);
  }, 150_000);
});
