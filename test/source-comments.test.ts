import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

// Comments and test names say why the code is as it is, never which tracker item asked for it: a
// number means nothing to a reader without the tracker, and the reason it stood for is lost with it.
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CHECKED = ['src', 'test', 'scripts', 'bench'];
const SOURCE = /\.(ts|mts|cts|js|mjs|cjs|sh)$/;
/** The word issue (or issues), then a number, with a space, a hyphen or a `#` between: in any case. */
const TRACKER_NUMBER = /\bissues?[\s-]*#?\d+/i;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return name === 'node_modules' ? [] : filesUnder(full);
    return SOURCE.test(name) ? [full] : [];
  });
}

describe('source comments', () => {
  it.each(CHECKED)('no file under %s/ names a tracker number', (dir) => {
    const files = filesUnder(join(ROOT, dir));
    expect(files.length).toBeGreaterThan(0);
    const found = files.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, i) => (TRACKER_NUMBER.test(line) ? [`${relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
