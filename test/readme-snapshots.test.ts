// The README's snapshots block, run as written in bash against a local service started as the README
// says, from an empty HOME, with `svc` on PATH (issue 15): the example must not drift from the verbs.
import { afterAll, describe, expect, it } from 'vitest';
import { freshShellHome, readmeBlock } from './helpers/readme-blocks.js';

const shell = freshShellHome('svc-readme-snapshots-');
afterAll(() => shell.cleanup());

describe('README Snapshots and reset', () => {
  it('runs as written against a freshly started local service', async () => {
    const block = readmeBlock('snapshots');
    expect(block.split('\n').filter((l) => l.trim().startsWith('svc ')).length).toBeGreaterThan(5);
    const out = await shell.run(`svc server start --detach --port 0\n${block}\nsvc server stop\n`, 'the README snapshots block');
    expect(out.stderr).toContain('saved snapshot before-demo');
    expect(out.stderr).toContain('loaded snapshot before-demo');
    expect(out.stdout).toMatch(/^before-demo\t\d+\t\S+\t\d+$/m);
    expect(out.stderr).toContain('reset the local service (accounts and keys kept)');
    expect(out.stderr).toContain('removed snapshot before-demo');
  }, 150_000);
});
