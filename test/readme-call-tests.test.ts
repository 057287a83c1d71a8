// The README's Calls as tests section: its YAML is the shipped example, byte for byte. Its commands
// run as written with every other sh block of the README, in order (test/readme-in-order.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readmeBlock } from './helpers/readme-blocks.js';
import { REPO_ROOT } from './helpers/cli.js';

describe('README Calls as tests', () => {
  it('shows the shipped route and its tests as they are in examples/calls/', () => {
    const shipped = (name: string) => readFileSync(join(REPO_ROOT, 'examples', 'calls', name), 'utf8');
    expect(readmeBlock('call-route-example', 'yaml')).toBe(shipped('front-desk.yaml'));
    expect(readmeBlock('call-tests-example', 'yaml')).toBe(shipped('front-desk.test.yaml'));
  });
});
