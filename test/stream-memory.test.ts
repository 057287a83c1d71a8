// Streaming lists: holdYoungGeneration (src/cli/stream-memory.ts) keeps V8's young
// generation at its size for the rest of a stream. Proven in child processes (V8 flags are
// process-wide: set here they would reach every test sharing this process), each allocating like a
// long stream does: objects made fast, a window of them alive at any time, nothing kept for good.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, REPO_ROOT } from './helpers/cli.js';

const streamLike = (hold: boolean) => `
import v8 from 'node:v8';
import { holdYoungGeneration } from ${JSON.stringify(join(REPO_ROOT, 'dist', 'cli', 'stream-memory.js'))};
if (${hold}) holdYoungGeneration();
const window = [];
let written = 0;
for (let i = 0; i < 2e6; i++) {
  const row = { id: 'msg_' + i, body: 'the quick brown fox ' + i, parts: [i, i + 1], at: { ms: i } };
  window.push(row);
  if (window.length > 2000) window.splice(0, 1000);
  written += JSON.stringify(row).length;
}
const young = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
process.stdout.write(JSON.stringify({ youngMiB: young.space_size / 1048576, written }));
`;

const run = (hold: boolean) => JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', streamLike(hold)], { encoding: 'utf8', timeout: 60_000 })) as { youngMiB: number; written: number };

describe('holdYoungGeneration', () => {
  beforeAll(() => assertBuilt());

  it('keeps the young generation where it is, where V8 alone widens it as the stream goes on', () => {
    const free = run(false);
    const held = run(true);
    expect(free.written).toBeGreaterThan(0);
    expect(held.written).toBe(free.written);
    // V8 starts with 1 MB halves (2 MB in all) and doubles them up to 16 MB each (32 MB).
    expect(free.youngMiB).toBeGreaterThanOrEqual(8);
    expect(held.youngMiB).toBeLessThanOrEqual(2);
  });
});
