// `man svc` after `npm link` or a global install would say "No manual entry": npm links only the
// pages package.json's `man` lists. Every page in man/ is listed, and npm puts them where man looks.
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './helpers/cli.js';

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string; version: string; bin: Record<string, string>; man?: string[]; files: string[] };
const pages = readdirSync(join(REPO_ROOT, 'man')).sort();

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('the man pages are installed with the package', () => {
  it('package.json `man` lists every file in man/, and nothing else', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(pages).toContain('svc.1');
    expect(pkg.man).toEqual(pages.map((p) => `man/${p}`));
    // And the package ships them (the `files` list; test/package-install.test.ts checks the tarball).
    expect(pkg.files).toContain('man');
  });

  it('a global install links every page into PREFIX/share/man/man1, where `man svc` finds it', () => {
    // The package as npm reads it (name, version, bin, man), without its dependencies: npm installs
    // nothing from a registry, and a folder install links it the way `npm link` does.
    const root = mkdtempSync(join(tmpdir(), 'svc-man-install-'));
    temps.push(root);
    const pkgDir = join(root, 'pkg');
    const prefix = join(root, 'prefix');
    for (const rel of [...Object.values(pkg.bin), ...(pkg.man ?? [])]) {
      mkdirSync(dirname(join(pkgDir, rel)), { recursive: true });
      copyFileSync(join(REPO_ROOT, rel), join(pkgDir, rel));
    }
    writeFileSync(join(pkgDir, 'package.json'), JSON.stringify({ name: pkg.name, version: pkg.version, bin: pkg.bin, man: pkg.man }));
    execFileSync('npm', ['install', '--global', '--prefix', prefix, '--offline', '--ignore-scripts', '--no-audit', '--no-fund', pkgDir], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: root, npm_config_cache: join(root, 'cache'), npm_config_update_notifier: 'false' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const manDir = join(prefix, 'share', 'man');
    for (const page of pages) {
      const linked = join(manDir, 'man1', page);
      expect(existsSync(linked), linked).toBe(true);
      expect(realpathSync(linked)).toBe(realpathSync(join(pkgDir, 'man', page)));
    }
    // With man on the machine: `man svc` and `man svc-numbers` resolve through that directory.
    if (spawnSync('man', ['-w', 'man']).error) return;
    for (const name of ['svc', 'svc-numbers']) {
      const found = spawnSync('man', ['-w', name], { env: { ...process.env, MANPATH: manDir }, encoding: 'utf8' });
      expect(found.status, found.stderr).toBe(0);
      expect(realpathSync(found.stdout.trim())).toBe(realpathSync(join(pkgDir, 'man', `${name}.1`)));
    }
  }, 90_000);
});
