// The README's Fixtures section: its YAML is the shipped example. Its commands run as
// written with every other sh block of the README, in order (test/readme-in-order.test.ts).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readmeBlock } from './helpers/readme-blocks.js';
import { assertBuilt, REPO_ROOT, runSvcProcess } from './helpers/cli.js';
import { parseFixture } from '../src/cli/commands/fixtures/fixture-file.js';

describe('README Fixtures', () => {
  it('shows the shipped sms-auto-responder example, step for step', () => {
    const shown = parseFixture(parseYaml(readmeBlock('fixture-example', 'yaml')), 'README.md');
    const shipped = parseFixture(parseYaml(readFileSync(join(REPO_ROOT, 'examples', 'sms-auto-responder.yaml'), 'utf8')), 'sms-auto-responder.yaml');
    expect(shown.steps.length).toBeGreaterThan(3);
    expect(shown.steps.some((s) => s.kind === 'svc')).toBe(true);
    expect(shown).toEqual(shipped);
  });
});

// The README runs the examples from any directory: the CLI says where the package installed them.
describe('svc fixtures examples', () => {
  it('prints each shipped example\'s path, or the one named; an unknown name lists the others (exit 4)', async () => {
    assertBuilt();
    const home = mkdtempSync(join(tmpdir(), 'svc-examples-'));
    try {
      const shipped = readdirSync(join(REPO_ROOT, 'examples')).filter((f) => f.endsWith('.yaml')).sort();
      const all = await runSvcProcess(['fixtures', 'examples'], { env: { HOME: home } });
      expect(all.code, all.stderr).toBe(0);
      expect(all.stdout).toBe(shipped.map((f) => `${join(REPO_ROOT, 'examples', f)}\n`).join(''));
      const one = await runSvcProcess(['fixtures', 'examples', 'sms-auto-responder'], { env: { HOME: home } });
      expect(one.stdout).toBe(`${join(REPO_ROOT, 'examples', 'sms-auto-responder.yaml')}\n`);
      const none = await runSvcProcess(['fixtures', 'examples', '../package.json'], { env: { HOME: home } });
      expect(none.code).toBe(4);
      expect(none.stderr).toContain('the package ships email-domain, ivr-voicemail, mock-10dlc, sms-auto-responder');
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
