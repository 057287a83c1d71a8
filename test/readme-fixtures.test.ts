// The README's Fixtures section (issue 15): its YAML is the shipped example, and its commands run as
// written in bash against a local service started as the README says, from an empty HOME with `svc`
// on PATH and the project's `examples/` beside it (the README runs them from the checkout).
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { freshShellHome, readmeBlock } from './helpers/readme-blocks.js';
import { REPO_ROOT } from './helpers/cli.js';
import { parseFixture } from '../src/cli/commands/fixtures/fixture-file.js';

const shell = freshShellHome('svc-readme-fixtures-');
afterAll(() => shell.cleanup());

describe('README Fixtures', () => {
  it('shows the shipped sms-auto-responder example, step for step', () => {
    const shown = parseFixture(parseYaml(readmeBlock('fixture-example', 'yaml')), 'README.md');
    const shipped = parseFixture(parseYaml(readFileSync(join(REPO_ROOT, 'examples', 'sms-auto-responder.yaml'), 'utf8')), 'sms-auto-responder.yaml');
    expect(shown.steps.length).toBeGreaterThan(3);
    expect(shown.steps.some((s) => s.kind === 'svc')).toBe(true);
    expect(shown).toEqual(shipped);
  });

  it('runs as written against a freshly started local service', async () => {
    const block = readmeBlock('fixtures');
    expect(block.split('\n').filter((l) => l.startsWith('svc fixtures run ')).length).toBe(2);
    symlinkSync(join(REPO_ROOT, 'examples'), join(shell.home, 'examples'));
    const out = await shell.run(`svc server start --detach --port 0\n${block}\nsvc server stop\n`, 'the README fixtures block');
    // The first run: a line per step, then its cleanup (number and webhook); the second: NDJSON.
    expect(out.stdout).toMatch(/^number\tsvc numbers buy \+1415\d{7} --yes → exit 0\tnum_\w+\t\d+$/m);
    expect(out.stdout).toMatch(/^received\t1 message\.received event\tevt_\w+\t\d+$/m);
    expect(out.stdout).toMatch(/^cleanup\tPOST \/v1\/numbers\/num_\w+\/release → 200\t/m);
    expect(out.stdout).toMatch(/^cleanup\tDELETE \/v1\/webhooks\/we_\w+ → 204\t/m);
    const records = out.stdout.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as { ok: boolean });
    expect(records.length).toBeGreaterThan(2);
    for (const r of records) expect(r).toMatchObject({ ok: true });
  }, 150_000);
});
