// /openapi.json is lint-clean under Redocly's recommended ruleset (redocly.yaml), and the
// gate bites: a copy with one 4xx response removed and a duplicated operationId fails it. Runs
// scripts/openapi-lint.mjs, the same command as `npm run lint:openapi` (needs `npm run build`).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, assertBuilt } from './helpers/cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts', 'openapi-lint.mjs');
/** Each lint takes a few seconds; the bound only catches a hang. */
const LINT_TIMEOUT_MS = 45_000;

function lint(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), LINT_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'svc-openapi-lint-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('redocly lint of /openapi.json', () => {
  it(
    'is clean: no error, no warning, every operation with a summary, a unique operationId, a tag and a 4XX response',
    async () => {
      const file = join(dir, 'openapi.json');
      const res = await lint(['--write', file]);
      expect(res.stdout).toMatch(/^openapi lint: \d+ operations, 0 errors, 0 warnings$/m);
      expect(res.code, `${res.stdout}\n${res.stderr}`).toBe(0);

      // What the linter read is the service's document, with its operations.
      const doc = JSON.parse(readFileSync(file, 'utf8')) as { paths: Record<string, Record<string, { operationId: string; summary: string; tags: string[]; responses: Record<string, unknown> }>> };
      const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
      expect(ops.length).toBeGreaterThan(50);
      expect(new Set(ops.map((o) => o.operationId)).size).toBe(ops.length);
      for (const op of ops) {
        expect(op.summary, op.operationId).toBeTruthy();
        expect(op.tags.length, op.operationId).toBeGreaterThan(0);
        expect(Object.keys(op.responses), op.operationId).toContain('4XX');
      }

      // The gate bites: break one operation two ways and lint the copy as it is.
      const [first, second] = ops;
      delete first!.responses['4XX'];
      second!.operationId = first!.operationId;
      const bad = join(dir, 'broken.json');
      writeFileSync(bad, JSON.stringify(doc));
      const broken = await lint(['--lint', bad]);
      expect(broken.code).toBe(1);
      expect(broken.stdout).toContain('operation-4xx-response');
      expect(broken.stdout).toContain('operation-operationId-unique');
      expect(broken.stdout).not.toMatch(/0 errors, 0 warnings/);
    },
    2 * LINT_TIMEOUT_MS,
  );
});
