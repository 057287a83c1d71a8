import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FixtureObject } from './types.js';

/** The package's own CLI (dist/testing → bin/, as src/testing → bin/ in a checkout). */
const CLI = fileURLToPath(new URL('../../bin/svc.js', import.meta.url));
const SEED_TIMEOUT_MS = 120_000;

/**
 * Runs a fixture with `svc fixtures run` against the service, as a user would: the fixtures format
 * and its checks are the CLI's, and it speaks the public API. Its profile directory is an empty
 * temporary one, so no user setting leaks in. Answers the step records (`-o json`).
 */
export async function runSeed(fixture: string | FixtureObject, target: { baseUrl: string; apiKey: string }): Promise<unknown[]> {
  const configDir = mkdtempSync(join(tmpdir(), 'svc-testing-config-'));
  try {
    const fromStdin = typeof fixture !== 'string';
    const args = [CLI, 'fixtures', 'run', fromStdin ? '-' : fixture, '-o', 'json'];
    const env = { PATH: process.env.PATH ?? '', HOME: configDir, SVC_CONFIG_DIR: configDir, SVC_BASE_URL: target.baseUrl, SVC_API_KEY: target.apiKey, NO_COLOR: '1' };
    const { code, stdout, stderr } = await run(process.execPath, args, env, fromStdin ? JSON.stringify(fixture) : '');
    if (code !== 0) throw new Error(`seed: svc fixtures run failed (exit ${code}):\n${stderr.trim() || stdout.trim()}`);
    return JSON.parse(stdout) as unknown[];
  } finally {
    rmSync(configDir, { recursive: true, force: true });
  }
}

function run(cmd: string, args: string[], env: Record<string, string>, input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), SEED_TIMEOUT_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(input);
  });
}
