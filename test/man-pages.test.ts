import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ENVIRONMENT_VARIABLES } from '../src/cli/environment.js';

// cli.md: man pages generated from the tree. mandoc's linter is the judge of a well-formed page;
// CI installs it (.ci/run). Without it this test fails: it never passes unchecked.
const MAN_DIR = join(import.meta.dirname, '..', 'man');
const pages = readdirSync(MAN_DIR).filter((f) => f.endsWith('.1'));

describe('man pages', () => {
  it('exist for svc and every group', () => {
    expect(pages.length).toBeGreaterThan(10);
    expect(pages).toContain('svc.1');
    expect(pages).toContain('svc-numbers.1');
  });

  it('are clean under mandoc -Tlint (warnings included)', () => {
    const probe = spawnSync('mandoc', ['-V']);
    if (probe.error) throw new Error('mandoc is not installed (apt-get install mandoc; .ci/run installs it)');
    for (const page of pages) {
      const res = spawnSync('mandoc', ['-Tlint', '-W', 'warning', join(MAN_DIR, page)], { encoding: 'utf8' });
      expect({ page, lint: `${res.stdout}${res.stderr}`.trim() }).toEqual({ page, lint: '' });
    }
  });

  it('carry a date, EXAMPLES, EXIT STATUS, ENVIRONMENT and FILES on every page', () => {
    for (const page of pages) {
      const text = readFileSync(join(MAN_DIR, page), 'utf8');
      expect(text.split('\n')[0], page).toMatch(/^\.TH \S+ 1 \d{4}-\d{2}-\d{2} /);
      for (const section of ['EXAMPLES', 'EXIT STATUS', 'ENVIRONMENT', 'FILES']) expect(text, `${page}: ${section}`).toContain(`.SH ${section}\n`);
    }
  });

  it('document every environment variable and exit code, as rendered by man', () => {
    const rendered = execFileSync('mandoc', ['-Tascii', join(MAN_DIR, 'svc.1')], { encoding: 'utf8' }).replace(/.\x08/g, '');
    expect(ENVIRONMENT_VARIABLES.length).toBeGreaterThan(5);
    for (const v of ENVIRONMENT_VARIABLES) expect(rendered).toContain(v.name);
    for (const code of ['130', 'payment_required', 'address_suggestion']) expect(rendered).toContain(code);
    // Multi-line examples stay whole.
    const numbers = execFileSync('mandoc', ['-Tascii', join(MAN_DIR, 'svc-numbers.1')], { encoding: 'utf8' }).replace(/.\x08/g, '');
    expect(numbers).toContain('--opt-in-workflow "Patients tick a box');
  });
});
