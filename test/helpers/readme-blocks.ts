import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { assertBuilt, BIN_PATH, REPO_ROOT } from './cli.js';

// The README's blocks: its ```sh blocks in order (test/readme-in-order.test.ts runs them as written in
// one bash from an empty HOME, with `svc` on PATH as `npm link` puts it and only what a fresh login
// shell has: no SVC_* from the test run; CI as given), and a block between `<!-- NAME:start -->` and
// `<!-- NAME:end -->` markers.

const run = promisify(execFile);

/** The shell block (or a block of another `lang`) between a README's `NAME` markers. */
export function readmeBlock(name: string, lang = 'sh'): string {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const block = new RegExp(`<!-- ${name}:start -->\\s*\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\s*<!-- ${name}:end -->`).exec(readme);
  if (!block) throw new Error(`README.md has no ${name} block between its markers`);
  return block[1]!;
}

/** One ```sh block of the README, where it is and whether it is run. */
export interface ShellBlock {
  /** 1-based, in README order. */
  index: number;
  /** The heading it sits under. */
  section: string;
  /** The README line of the block's first line (after the fence). */
  line: number;
  text: string;
  /** Why it is not run: the reason of a `<!-- sh-not-run: REASON -->` marker just above its fence. */
  notRun?: string;
}

const NOT_RUN = /^<!-- sh-not-run: (.+) -->$/;

/** Every ```sh block of README.md in order; a `sh-not-run` marker applies to the fence right after it. */
export function readmeShellBlocks(): ShellBlock[] {
  const lines = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  let section = '(top)';
  let notRun: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heading = /^#+ (.+)$/.exec(line);
    if (heading) section = heading[1]!;
    const marker = NOT_RUN.exec(line);
    if (marker) {
      notRun = marker[1]!;
      continue;
    }
    if (!line.startsWith('```')) continue;
    const lang = line.slice(3).trim();
    const end = lines.indexOf('```', i + 1);
    if (end < 0) throw new Error(`README.md line ${i + 1}: a code fence that never closes`);
    if (notRun !== undefined && lang !== 'sh') throw new Error(`README.md line ${i + 1}: sh-not-run marks a ${lang || 'plain'} block`);
    if (lang === 'sh') blocks.push({ index: blocks.length + 1, section, line: i + 2, text: lines.slice(i + 1, end).join('\n'), ...(notRun !== undefined ? { notRun } : {}) });
    notRun = undefined;
    i = end;
  }
  return blocks;
}

export interface ShellRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ShellHome {
  home: string;
  /** Runs a script in bash (no options set) from the home, and says how it ended. */
  runScript(script: string, timeoutMs: number): Promise<ShellRun>;
  /** Kills a service the script left running and removes the home. */
  cleanup(): void;
}

/** A fresh HOME with `svc` on PATH, as a new user's shell has it. */
export function freshShellHome(prefix: string): ShellHome {
  const home = mkdtempSync(join(tmpdir(), prefix));
  const shell = (args: string[], timeoutMs: number) => {
    assertBuilt();
    const bin = join(home, 'bin');
    if (!existsSync(bin)) {
      mkdirSync(bin);
      symlinkSync(BIN_PATH, join(bin, 'svc'));
    }
    const env: Record<string, string> = { PATH: `${bin}:${process.env.PATH}`, HOME: home, LANG: 'C.UTF-8' };
    if (process.env.CI) env.CI = process.env.CI;
    return run('bash', args, { env, cwd: home, timeout: timeoutMs, maxBuffer: 10 * 1024 * 1024 });
  };
  return {
    home,
    async runScript(script, timeoutMs) {
      try {
        return { code: 0, ...(await shell(['-c', script], timeoutMs)) };
      } catch (err) {
        const e = err as { code?: number | string; stdout?: string; stderr?: string; message: string };
        return { code: typeof e.code === 'number' ? e.code : null, stdout: e.stdout ?? '', stderr: `${e.stderr ?? ''}\n${e.message}` };
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
