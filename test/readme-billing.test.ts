// The README's Billing block, run as written in bash against a local service started as the README
// says (`svc server start --detach --port 0`), from an empty HOME, with `svc` on PATH: the examples
// must not drift from the commands (issue 12).
import { afterAll, describe, expect, it } from 'vitest';
import { freshShellHome, readmeBlock } from './helpers/readme-blocks.js';

const shell = freshShellHome('svc-readme-billing-');
afterAll(() => shell.cleanup());

describe('README Billing', () => {
  it('runs as written against a freshly started local service', async () => {
    const block = readmeBlock('billing');
    expect(block.split('\n').filter((l) => l.trim().startsWith('svc ')).length).toBeGreaterThan(10);
    const out = await shell.run(`svc server start --detach --port 0\n${block}\nsvc server stop\n`, 'the README Billing block');
    // What the block did, checked from its own output.
    expect(out.stdout).toContain('"balanceCents": 2000');
    expect(out.stdout).toContain('"kind": "auto_recharge"');
    expect(out.stdout).toContain('"autoRechargeStarted": true');
    expect(out.stdout).toContain('declined (exit 7)');
    expect(out.stderr).toContain('the card was declined');
    expect(out.stderr).toContain('stopped the local service');
  }, 150_000);
});
