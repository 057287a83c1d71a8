// The README's Email block, run as written in bash against a local service started as the README
// says (`svc server start --detach --port 0`), from an empty HOME, with `svc` on PATH: the examples
// must not drift from the commands (issue 11).
import { afterAll, describe, expect, it } from 'vitest';
import { freshShellHome, readmeBlock } from './helpers/readme-blocks.js';

const shell = freshShellHome('svc-readme-email-');
afterAll(() => shell.cleanup());

describe('README Email', () => {
  it('runs as written against a freshly started local service', async () => {
    const block = readmeBlock('email');
    expect(block.split('\n').filter((l) => l.trim().startsWith('svc ')).length).toBeGreaterThan(10);
    const out = await shell.run(`svc server start --detach --port 0\n${block}\nsvc server stop\n`, 'the README Email block');
    // What the block did, checked from its own output.
    expect(out.stdout).toMatch(/^_svc-verification\.send\.example\.org\. 3600 IN TXT "/m);
    expect(out.stderr).toMatch(/^valid\s+dkim/m);
    expect(out.stdout).toContain('"status": "verified"');
    expect(out.stdout).toContain('"subject": "Your code"');
    expect(out.stdout).toContain('bounced (exit 1)');
    expect(out.stdout).toContain('hard_bounce');
    expect(out.stdout).toContain('degraded (exit 1)');
    expect(out.stderr).toContain('removed the sending domain send.example.com');
    expect(out.stderr).toContain('stopped the local service');
  }, 150_000);
});
