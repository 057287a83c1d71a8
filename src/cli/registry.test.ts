import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GROUPS } from './groups.js';
import { loadRegistry } from './registry.js';
import { importCircles, importGraph, importsOf, sourceFilesUnder } from '../../test/helpers/import-graph.js';

// One verb shape, and no import circle in src/cli.

const cliDir = dirname(fileURLToPath(import.meta.url));
const srcDir = resolve(cliDir, '..');

/**
 * The groups not yet on the registry: they still register commander commands themselves. This list
 * only shrinks: a converted group must leave it (the test says so), and a new group starts on the
 * registry. `console` arrives from another branch and is converted after the merge.
 */
const PENDING: string[] = [];

describe('one verb shape', () => {
  it('every group is on the registry but the listed pending ones', async () => {
    const { verbs, pending } = await loadRegistry();
    expect(pending.filter((g) => !PENDING.includes(g)), 'a group defined another way').toEqual([]);
    expect(PENDING.filter((g) => g in GROUPS && !pending.includes(g)), 'converted: take it off PENDING').toEqual([]);
    // Each verb once, with what help, docs and `svc mcp` need.
    const names = verbs.map((v) => [v.group, ...v.path].join(' '));
    expect(new Set(names).size).toBe(names.length);
    for (const { verb } of verbs) {
      expect(verb.summary, verb.name).toMatch(/\S/);
      expect(verb.examples.length, verb.name).toBeGreaterThan(0);
      expect(typeof verb.run, verb.name).toBe('function');
    }
  });

  it('no file of a converted group builds commander commands or actions itself', () => {
    const offenders: string[] = [];
    for (const group of Object.keys(GROUPS).filter((g) => !PENDING.includes(g))) {
      const dir = join(cliDir, 'commands', group);
      if (!existsSync(dir)) continue;
      for (const file of sourceFilesUnder(dir)) {
        const text = readFileSync(file, 'utf8');
        if (/from 'commander'|\.\.\/commander\.js'|\.command\(|\.action\(|\.requiredOption\(/.test(text)) offenders.push(relative(srcDir, file));
      }
    }
    expect(offenders).toEqual([]);
  });

  it('no run module imports a definition (a group index or a verb file with no .run)', () => {
    const offenders: string[] = [];
    for (const file of sourceFilesUnder(join(cliDir, 'commands')).filter((f) => f.endsWith('.run.ts'))) {
      for (const spec of importsOf(readFileSync(file, 'utf8'))) {
        if (!spec.startsWith('.')) continue;
        const target = resolve(dirname(file), spec.replace(/\.js$/, '.ts'));
        const group = relative(join(cliDir, 'commands'), target).split('/')[0]!;
        if (PENDING.includes(group)) continue;
        if (target.endsWith(`${join('commands', group, 'index.ts')}`)) offenders.push(`${relative(srcDir, file)} imports ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});

describe('one flag, one meaning', () => {
  it('-f is --file in every verb (svc api keeps it only as the old spelling of -F, --field)', async () => {
    const { verbs } = await loadRegistry();
    const shortF = verbs.flatMap(({ group, path, verb }) => (verb.flags ?? []).filter((f) => /(^|[ ,])-f\b/.test(f.flags)).map((f) => `${[group, ...path].join(' ')}: ${f.flags}`));
    expect(shortF.length).toBeGreaterThan(0);
    expect(shortF.filter((f) => !/-f, --file </.test(f))).toEqual([]);
    const api = verbs.find((v) => v.group === 'api')!.verb;
    expect(api.flags!.find((f) => f.flags.startsWith('-F, --field'))?.aliases).toEqual(['-f']);
  });

  it('every flag or argument that names a file or directory on this machine is marked local (svc mcp never takes a path)', async () => {
    const { verbs } = await loadRegistry();
    const unmarked = verbs.flatMap(({ group, path, verb }) => [
      ...(verb.flags ?? []).filter((f) => /<(file|dir)>/.test(f.flags) && !f.local).map((f) => `${[group, ...path].join(' ')} ${f.flags}`),
      ...(verb.args ?? []).filter((a) => /^(file|dir)$/.test(a.name) && !a.local).map((a) => `${[group, ...path].join(' ')} <${a.name}>`),
    ]);
    expect(unmarked).toEqual([]);
  });
});

describe('import circles in src/cli', () => {
  const graph = importGraph(sourceFilesUnder(cliDir), (t) => t.startsWith(cliDir));
  const inPending = (file: string): boolean => PENDING.includes(relative(join(cliDir, 'commands'), file).split('/')[0]!);

  it('the walk finds a circle, type-only and lazy (import()) imports included', () => {
    const g = new Map([['a', ['b']], ['b', ['a']], ['c', ['a']]]);
    expect(importCircles(g)).toEqual([['a', 'b']]);
    expect(importsOf("import type { X } from './x.js';\nexport { y } from './y.js';\nconst z = () => import('./z.js');")).toEqual(['./x.js', './y.js', './z.js']);
  });

  it('none outside the groups still pending (each of those goes when its group is converted)', () => {
    const found = importCircles(graph)
      .filter((scc) => !scc.every(inPending))
      .map((scc) => scc.map((f) => relative(srcDir, f)).join(' → '));
    expect(found).toEqual([]);
  });
});

describe('an endpoint path is written once, in src/api', () => {
  it('no code outside src/api and src/server writes a /v1/ path (help text and comments may name one)', () => {
    const offenders: string[] = [];
    for (const dir of readdirSync(srcDir).filter((d) => d !== 'api' && d !== 'server')) {
      const path = join(srcDir, dir);
      for (const file of statSync(path).isDirectory() ? sourceFilesUnder(path) : path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : []) {
        readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, i) => {
            // A string that IS a path (`'/v1/keys'`, `` `/v1/keys/${id}` ``) or a pattern for one.
            const comment = /^\s*(\/\/|\/?\*)/.test(line);
            if (!comment && /['"`]\/v1\/|\\\/v1\\\//.test(line)) offenders.push(`${relative(srcDir, file)}:${i + 1}: ${line.trim()}`);
          });
      }
    }
    expect(offenders).toEqual([]);
  });
});
