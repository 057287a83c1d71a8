// The README's walkthrough, run as written: each command in order, in bash, from an empty HOME,
// with `svc` on PATH as `npm link` puts it (issue 8: a new user's first steps must not dead-end).
import { afterAll, describe, expect, it } from 'vitest';
import { freshShellHome, readmeBlock } from './helpers/readme-blocks.js';

const shell = freshShellHome('svc-walkthrough-');
afterAll(() => shell.cleanup());

describe('README walkthrough', () => {
  it('runs as written from an empty home directory', async () => {
    const script = readmeBlock('walkthrough');
    const lines = script.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(lines.length).toBeGreaterThan(8);
    const out = await shell.run(script, 'the walkthrough');
    // What the walk did, checked from its own output.
    expect(out.stdout).toMatch(/"status": "delivered"|delivered/);
    expect(out.stderr).toContain('+ svc server stop');
    expect(out.stderr).toContain('stopped the local service');
    // The simulated call was answered and its end reported.
    expect(out.stdout).toMatch(/answered\s+by pstn \+14155550123/);
    expect(out.stdout).toMatch(/call\.completed/);
  }, 150_000);
});
