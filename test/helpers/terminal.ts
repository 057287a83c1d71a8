// A real terminal for tests: a tmux session on its own server socket, typed into with send-keys and
// read with capture-pane. Interactive behaviour (completion at a shell prompt, wizards, Ctrl-C) is
// tested here as a person meets it. Without tmux this throws: such a test fails, it never skips.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';

export interface Terminal {
  /** Types text literally (no key names). */
  type(text: string): void;
  /** Presses keys by tmux name: 'Tab', 'Enter', 'C-c', 'BSpace'. */
  press(...keys: string[]): void;
  /** The visible screen, trailing blank lines dropped. */
  screen(): string;
  /**
   * Waits until the screen passes `test`; throws with the screen after `timeoutMs`, and never sooner
   * than WAIT_FLOOR_MS: the bound catches a hang, it is not a speed check.
   */
  until(test: (screen: string) => boolean, timeoutMs?: number, what?: string): Promise<string>;
  close(): void;
}

/**
 * The least a test waits for something to show before it fails: what shows in 1 s on a quiet
 * machine can take ten times that on a loaded 2-core CI machine, and a wait that passes
 * returns the moment the thing shows, so a generous bound costs nothing.
 */
export const WAIT_FLOOR_MS = 30_000;

export function requireTmux(): void {
  const probe = spawnSync('tmux', ['-V']);
  if (probe.error) throw new Error('tmux is not installed (apt-get install tmux; .ci/run installs it): terminal tests cannot run');
}

export function openTerminal(command: string[], opts: { env?: Record<string, string>; cwd?: string; width?: number; height?: number } = {}): Terminal {
  requireTmux();
  const socket = `svc-test-${randomBytes(6).toString('hex')}`;
  const tmux = (...args: string[]) => execFileSync('tmux', ['-L', socket, ...args], { encoding: 'utf8' });
  // A person at a terminal: the command starts from an empty environment (env -i) with only a
  // PATH, a TERM and what the test gives, never the test run's own (CI=true there would turn
  // every prompt off). env(1) rather than tmux's `-e`, which not every version applies to a
  // session's first window. -f /dev/null: no user tmux.conf.
  const base = { PATH: process.env.PATH ?? '/usr/bin:/bin', TERM: 'xterm', LANG: 'C.UTF-8' };
  const env = Object.entries({ ...base, ...(opts.env ?? {}) }).map(([k, v]) => `${k}=${v}`);
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', 'new-session', '-d', '-x', String(opts.width ?? 160), '-y', String(opts.height ?? 40), ...(opts.cwd ? ['-c', opts.cwd] : []), 'env', '-i', ...env, ...command]);
  const screen = () => tmux('capture-pane', '-p', '-J').replace(/\n+$/, '');
  return {
    type: (text) => void tmux('send-keys', '-l', text),
    press: (...keys) => void tmux('send-keys', ...keys),
    screen,
    async until(test, timeoutMs = WAIT_FLOOR_MS, what = 'the expected screen') {
      const bound = Math.max(timeoutMs, WAIT_FLOOR_MS);
      const deadline = Date.now() + bound;
      for (;;) {
        const s = screen();
        if (test(s)) return s;
        if (Date.now() > deadline) throw new Error(`terminal: no ${what} within ${bound} ms; screen:\n${s}`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    close: () => {
      spawnSync('tmux', ['-L', socket, 'kill-server']);
    },
  };
}

/**
 * The environment of a shell where `svc` is on PATH (as `npm link` puts it) and talks to `svc` (the
 * test service) with its test key; HOME and the config dir are fresh under `tmp`.
 */
export function shellEnvFor(svc: { dataDir: string; baseUrl: string; bootstrap: { testKey: string } }, tmp: string, binPath: string): Record<string, string> {
  const bin = join(tmp, 'bin');
  mkdirSync(bin, { recursive: true });
  mkdirSync(join(tmp, 'home'), { recursive: true });
  symlinkSync(binPath, join(bin, 'svc'));
  return {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: join(tmp, 'home'),
    SVC_CONFIG_DIR: join(tmp, 'config'),
    SVC_DATA_DIR: svc.dataDir,
    SVC_BASE_URL: svc.baseUrl,
    SVC_API_KEY: svc.bootstrap.testKey,
    TERM: 'xterm',
  };
}
