#!/usr/bin/env node
// The service's own /openapi.json, linted by Redocly CLI with the checked-in redocly.yaml
// (the recommended ruleset). Needs `npm run build`. Usage:
//   node scripts/openapi-lint.mjs            lint; exit 0 only when clean (no error, no warning)
//   node scripts/openapi-lint.mjs --write F  also keep the document in F (to read what the linter read)
//   node scripts/openapi-lint.mjs --lint F   lint the document in F as it is (the test's broken copy)
// The document comes from a real app in process (inject: no socket, no network), on a throwaway data
// directory; the linter is the project's pinned devDependency, run with its telemetry and update
// check off so CI talks to nothing.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const keepAt = args[0] === '--write' ? resolve(args[1] ?? '') : undefined;
const given = args[0] === '--lint' ? resolve(args[1] ?? '') : undefined;

/** The service's own GET /openapi.json. */
async function serviceDocument(dataDir) {
  const { startService } = await import(join(root, 'dist', 'server', 'main.js'));
  const svc = await startService({ host: '127.0.0.1', port: 0, dataDir, clock: 'manual' });
  try {
    const res = await svc.app.inject({ method: 'GET', url: '/openapi.json' });
    if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body}`);
    return res.body;
  } finally {
    await svc.close();
  }
}

const work = mkdtempSync(join(tmpdir(), 'svc-openapi-'));
let status = 1;
try {
  const doc = given ? readFileSync(given, 'utf8') : await serviceDocument(join(work, 'data'));
  const file = given ?? keepAt ?? join(work, 'openapi.json');
  if (!given) writeFileSync(file, doc);
  const redocly = join(root, 'node_modules', '.bin', 'redocly');
  // JSON out, so a warning fails too: lint-clean means no problem of any severity.
  const lint = spawnSync(redocly, ['lint', file, '--config', join(root, 'redocly.yaml'), '--format', 'json', '--max-problems', '10000'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true' },
  });
  if (lint.error) throw lint.error;
  let report;
  try {
    report = JSON.parse(lint.stdout);
  } catch {
    process.stderr.write(lint.stderr);
    throw new Error(`redocly lint exited ${lint.status} without a JSON report`);
  }
  const operations = Object.values(JSON.parse(doc).paths).reduce((n, item) => n + Object.keys(item).length, 0);
  for (const p of report.problems) {
    const where = p.location?.[0]?.pointer ?? '';
    process.stdout.write(`${p.severity} ${p.ruleId} ${where}: ${p.message}\n`);
  }
  const { errors, warnings } = report.totals;
  process.stdout.write(`openapi lint: ${operations} operations, ${errors} errors, ${warnings} warnings\n`);
  status = lint.status === 0 && errors === 0 && warnings === 0 ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
process.exit(status);
