// The README's Billing block, run as written in bash against a local service started as the README
// says (`svc server start --detach --port 0`), from an empty HOME, with `svc` on PATH: the examples
// must not drift from the commands (issue 12).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { assertBuilt, BIN_PATH, REPO_ROOT } from './helpers/cli.js';

const run = promisify(execFile);
const home = mkdtempSync(join(tmpdir(), 'svc-readme-billing-'));

/** The shell block between the Billing markers. */
function billingBlock(): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = /<!-- billing:start -->\s*```sh\n([\s\S]*?)```\s*<!-- billing:end -->/.exec(readme);
  if (!block) throw new Error('README.md has no Billing block between its markers');
  return block[1]!;
}

afterAll(() => {
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

describe('README Billing', () => {
  it('runs as written against a freshly started local service', async () => {
    assertBuilt();
    const block = billingBlock();
    expect(block.split('\n').filter((l) => l.trim().startsWith('svc ')).length).toBeGreaterThan(10);
    const bin = join(home, 'bin');
    mkdirSync(bin);
    symlinkSync(BIN_PATH, join(bin, 'svc'));
    const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: home, LANG: 'C.UTF-8' };
    if (process.env.CI) env.CI = process.env.CI;
    const script = `svc server start --detach --port 0\n${block}\nsvc server stop\n`;
    let out: { stdout: string; stderr: string };
    try {
      out = await run('bash', ['-euo', 'pipefail', '-x', '-c', script], { env, cwd: home, timeout: 120_000, maxBuffer: 10 * 1024 * 1024 });
    } catch (err) {
      const e = err as { stdout?: string; stderr?: string; message: string };
      throw new Error(`the README Billing block failed: ${e.message}\n--- stdout\n${e.stdout}\n--- stderr\n${e.stderr}`);
    }
    // What the block did, checked from its own output.
    expect(out.stdout).toContain('"balanceCents": 2000');
    expect(out.stdout).toContain('"kind": "auto_recharge"');
    expect(out.stdout).toContain('"autoRechargeStarted": true');
    expect(out.stdout).toContain('declined (exit 7)');
    expect(out.stderr).toContain('the card was declined');
    expect(out.stderr).toContain('stopped the local service');
  }, 150_000);
});
