// The README's Fixtures section (issue 15): its YAML is the shipped example. Its commands run as
// written with every other sh block of the README, in order (test/readme-in-order.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readmeBlock } from './helpers/readme-blocks.js';
import { REPO_ROOT } from './helpers/cli.js';
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
