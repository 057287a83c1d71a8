// The example app's suite (examples/testing/), as a user gets it: the packed package and
// Vitest installed into an empty project offline (as test/package-install.test.ts installs it), the
// example copied from the installed package, and its suite run against `svc/testing`, green.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, assertBuilt } from './helpers/cli.js';
import { consumerLock, pkg, prebuildName, readJson, run } from './helpers/pack-install.js';

const INSTALL_TIMEOUT_MS = 120_000;
const SUITE_TIMEOUT_MS = 120_000;

let root: string;
let tarball: string;

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(join(tmpdir(), 'svc-example-'));
  const out = execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', root], { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 });
  tarball = join(root, (JSON.parse(out) as Array<{ filename: string }>)[0]!.filename);
}, 60_000);

afterAll(() => {
  if (root) rmSync(root, { recursive: true, force: true });
});

describe('examples/testing', () => {
  it(
    'runs green from the installed package: the auto-responder, the sign-up and the chaos case',
    async () => {
      const home = join(root, 'home');
      const project = join(root, 'project');
      const prebuilds = join(root, 'prebuilds');
      for (const dir of [home, project, prebuilds]) mkdirSync(dir);
      const ref = `file:../${tarball.split('/').pop()}`;
      const integrity = `sha512-${createHash('sha512').update(readFileSync(tarball)).digest('base64')}`;
      const lock = consumerLock(ref, integrity, ['vitest']) as { packages: Record<string, { devDependencies?: Record<string, string> }> };
      writeFileSync(
        join(project, 'package.json'),
        JSON.stringify({ name: 'svc-install-check', private: true, type: 'module', dependencies: { [pkg.name]: ref }, devDependencies: lock.packages['']!.devDependencies, allowScripts: { 'better-sqlite3': true } }, null, 2),
      );
      writeFileSync(join(project, 'package-lock.json'), JSON.stringify(lock, null, 2));
      const addonDir = join(REPO_ROOT, 'node_modules', 'better-sqlite3');
      execFileSync('tar', ['-czf', join(prebuilds, prebuildName(readJson<{ version: string }>(join(addonDir, 'package.json')).version)), '-C', addonDir, 'build/Release/better_sqlite3.node']);
      const npmCache = execFileSync('npm', ['config', 'get', 'cache'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
      const baseEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home };
      const install = await run('npm', ['ci', '--offline', '--no-audit', '--no-fund'], {
        cwd: project,
        env: { ...baseEnv, npm_config_cache: npmCache, npm_config_update_notifier: 'false', npm_config_better_sqlite3_local_prebuilds: prebuilds },
        timeoutMs: INSTALL_TIMEOUT_MS,
      });
      expect(install.code, `${install.stdout}\n${install.stderr}`).toBe(0);

      // The example as the package ships it.
      const shipped = join(project, 'node_modules', pkg.name, 'examples', 'testing');
      expect(existsSync(join(shipped, 'app.test.mjs'))).toBe(true);
      cpSync(shipped, project, { recursive: true });
      const suite = await run(process.execPath, [join(project, 'node_modules', 'vitest', 'vitest.mjs'), 'run'], { cwd: project, env: { ...baseEnv, CI: '1', NO_COLOR: '1' }, timeoutMs: SUITE_TIMEOUT_MS });
      expect(suite.code, `${suite.stdout}\n${suite.stderr}`).toBe(0);
      expect(suite.stdout).toMatch(/Tests\s+4 passed \(4\)/);
    },
    INSTALL_TIMEOUT_MS + SUITE_TIMEOUT_MS,
  );
});
