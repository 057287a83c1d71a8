#!/usr/bin/env node
// Writes completions/ and man/ from the built command tree (run after `npm run build`), and the list
// of man pages in package.json.
// `--check` compares instead of writing and fails when the committed files are stale.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestIO } from '../dist/output/io.js';
import { fullCommandTree } from '../dist/cli/full-tree.js';
import { treeOf, bashCompletion, zshCompletion, fishCompletion, manPages } from '../dist/cli/docs.js';
import { CLI_VERSION } from '../dist/cli/context.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const check = process.argv.includes('--check');
const tree = treeOf(await fullCommandTree({ io: createTestIO(), env: {}, homedir: '/nonexistent', binPath: join(root, 'bin/svc.js') }));
const files = {
  'completions/svc.bash': bashCompletion(),
  'completions/_svc': zshCompletion(),
  'completions/svc.fish': fishCompletion(),
};
for (const [name, text] of Object.entries(manPages(tree, CLI_VERSION))) files[`man/${name}`] = text;
// package.json's `man` lists every page, so `npm link` and a global install put them where `man svc`
// finds them (npm links only the pages listed there).
const pkgPath = join(root, 'package.json');
const pkgText = readFileSync(pkgPath, 'utf8');
const pkg = JSON.parse(pkgText);
pkg.man = Object.keys(files).filter((rel) => rel.startsWith('man/')).sort();
files['package.json'] = `${JSON.stringify(pkg, null, 2)}\n`;

const stale = [];
for (const [rel, text] of Object.entries(files)) {
  const path = join(root, rel);
  if (check) {
    if (!existsSync(path) || readFileSync(path, 'utf8') !== text) stale.push(rel);
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
  }
}
if (check && stale.length) {
  console.error(`stale generated docs (run npm run docs): ${stale.join(', ')}`);
  process.exit(1);
}
console.error(check ? `docs up to date (${Object.keys(files).length} files)` : `wrote ${Object.keys(files).length} files`);
