import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, BIN_PATH, REPO_ROOT } from './cli.js';

// The README's shell blocks, run as written: in bash (-euo pipefail, -x so the log shows which command
// failed), from an empty HOME, with `svc` on PATH as `npm link` puts it, with only what a fresh login
// shell has (no SVC_* from the test run; CI as given). Each block sits between
// `<!-- NAME:start -->` and `<!-- NAME:end -->` markers.

const run = promisify(execFile);

/** The shell block (or a block of another `lang`) between a README's `NAME` markers. */
export function readmeBlock(name: string, lang = 'sh'): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = new RegExp(`<!-- ${name}:start -->\\s*\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`).exec(readme);
  if (!block) throw new Error(`README.md has no ${name} block between its markers`);
  return block[1]!;
}

export interface ShellHome {
  home: string;
  /** Runs a script in bash from the home; rejects with both streams in the message when it fails. */
  run(script: string, what: string): Promise<{ stdout: string; stderr: string }>;
  /** Kills a service the script left running and removes the home. */
  cleanup(): void;
}

/** A fresh HOME with `svc` on PATH, as a new user's shell has it. */
export function freshShellHome(prefix: string): ShellHome {
  const home = mkdtempSync(join(tmpdir(), prefix));
  return {
    home,
    async run(script, what) {
      assertBuilt();
      const bin = join(home, 'bin');
      if (!existsSync(bin)) {
        mkdirSync(bin);
        symlinkSync(BIN_PATH, join(bin, 'svc'));
      }
      const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: home, LANG: 'C.UTF-8' };
      if (process.env.CI) env.CI = process.env.CI;
      try {
        return await run('bash', ['-euo', 'pipefail', '-x', '-c', script], { env, cwd: home, timeout: 120_000, maxBuffer: 10 * 1024 * 1024 });
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        throw new Error(`${what} failed: ${e.message}\n--- stdout\n${e.stdout}\n--- stderr\n${e.stderr}`);
      }
    },
    cleanup() {
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
    },
  };
}
