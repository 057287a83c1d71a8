import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { createTestIO } from '../src/output/io.js';
import { runCli } from '../src/cli/main.js';
import { CLI_VERSION } from '../src/cli/version.js';

const root = new URL('..', import.meta.url);

// bin/svc.js answers `--help` and `--version` from build artifacts; they must match the live tree.
describe('start-up artifacts', () => {
  it('the pre-rendered root help equals the live `svc --help`', async () => {
    const file = new URL('dist/cli/root-help.txt', root);
    expect(existsSync(file), 'run `npm run build` first').toBe(true);
    const io = createTestIO({ stdoutTTY: false, columns: 80 });
    expect(await runCli(['--help'], { io, env: {}, homedir: '/nonexistent', binPath: '' })).toBe(0);
    expect(readFileSync(file, 'utf8')).toBe(io.out());
  });

  it('the CLI version is the package version, and the pre-rendered one (bin/svc.js prints it) is the same', () => {
    const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as { version: string };
    expect(CLI_VERSION).toBe(pkg.version);
    expect(readFileSync(new URL('dist/cli/version.txt', root), 'utf8')).toBe(`${CLI_VERSION}\n`);
  });

  it('the package exports the webhook verifier (README receiver example)', () => {
    const script = `
      const { verifyWebhookSignature, signWebhookPayload } = await import('svc');
      const sub = await import('svc/webhooks');
      const body = '{"id":"evt_1","type":"message.received"}';
      const header = signWebhookPayload(body, 'whsec_test');
      console.log(verifyWebhookSignature(body, header, 'whsec_test'), verifyWebhookSignature(body + ' ', header, 'whsec_test'), sub.verifyWebhookSignature === verifyWebhookSignature);`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: new URL('.', root).pathname, encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('true false true');
  });

  it('completions/ and man/ are generated from the current command tree', () => {
    const r = spawnSync(process.execPath, ['scripts/generate-docs.mjs', '--check'], { cwd: new URL('.', root).pathname, encoding: 'utf8' });
    expect(r.stderr).toContain('up to date');
    expect(r.status).toBe(0);
  });
});
