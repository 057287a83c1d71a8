// Start-up cost (cli.md; bench/startup): `svc --help`, `svc --version` and every verb's definition
// load only commander and our own cheap modules. Heavy libraries and the service are reached only
// through a dynamic import() — the verb's run module, the context's client, the prompter. This walks
// the static import graph (import/export … from, not import()) from the CLI entry and from each group
// module (the one registered for the command being run) and fails if it reaches any of them.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSvcProcess } from '../../test/helpers/cli.js';
import { startTestService, type TestService } from '../../test/helpers/service.js';

const srcDir = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = resolve(srcDir, '..', 'dist');

/**
 * Packages a start-up must never load; `@inquirer/` covers every package of that scope. re2js (a
 * user's pattern, `emails wait --subject-match`) only where a pattern is matched.
 */
const HEAVY = ['zod', 'undici', 'conf', 'ora', '@inquirer/', 'yaml', 'fastify', 'fastify-type-provider-zod', 'better-sqlite3', 'chalk', 're2js'];

const isHeavy = (spec: string): boolean => HEAVY.some((h) => (h.endsWith('/') ? spec.startsWith(h) : spec === h || spec.startsWith(`${h}/`)));

/** Static value imports and re-exports; `import type`, `export type` and all-`type` braces are erased by tsc. */
export function staticSpecifiers(source: string): string[] {
  const pattern = /^\s*(?:import|export)\s+(?!type\b)([^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  const out: string[] = [];
  for (const m of source.matchAll(pattern)) {
    const braces = /^\s*\{([^}]*)\}\s*from\s+$/.exec(m[1] ?? '');
    const names = braces?.[1]!.split(',').map((n) => n.trim()).filter(Boolean);
    if (names && names.length > 0 && names.every((n) => n.startsWith('type '))) continue;
    out.push(m[2]!);
  }
  return out;
}

/** file (absolute) → its static specifiers, for every file reachable from `entries`. */
function staticGraph(entries: string[], ext: '.ts' | '.js'): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (graph.has(file)) return;
    const specifiers = staticSpecifiers(readFileSync(file, 'utf8'));
    graph.set(file, specifiers);
    for (const spec of specifiers) if (spec.startsWith('.')) visit(resolve(dirname(file), ext === '.ts' ? spec.replace(/\.js$/, '.ts') : spec));
  };
  for (const entry of entries) visit(entry);
  return graph;
}

/** The CLI entry plus every group module: what any start-up can load before a verb runs. */
function startupEntries(root: string, ext: '.ts' | '.js'): string[] {
  const commands = join(root, 'cli', 'commands');
  const groups = readdirSync(commands).map((g) => join(commands, g, `index${ext}`)).filter((f) => existsSync(f));
  return [join(root, 'cli', `main${ext}`), join(root, 'cli', `version${ext}`), join(root, 'output', `index${ext}`), ...groups];
}

function heavyImports(graph: Map<string, string[]>, root: string): string[] {
  const found: string[] = [];
  const server = join(root, 'server');
  for (const [file, specifiers] of graph) {
    if (file.startsWith(server)) found.push(`${relative(root, file)} is under server/`);
    for (const spec of specifiers) if (isHeavy(spec)) found.push(`${relative(root, file)} imports ${spec}`);
  }
  return found;
}

describe('start-up import graph', () => {
  it('finds static imports and skips type-only and dynamic ones (the check itself works)', () => {
    const source = [
      "import { Chalk } from 'chalk';",
      "import type { X } from 'yaml';",
      "import { type Y, type Z } from 'zod';",
      "import {\n  a,\n  type B,\n} from './multi.js';",
      "export { v } from '../values.js';",
      "const lazy = () => import('undici');",
    ].join('\n');
    expect(staticSpecifiers(source)).toEqual(['chalk', './multi.js', '../values.js']);
    expect(isHeavy('@inquirer/prompts')).toBe(true);
    expect(isHeavy('zod/v4')).toBe(true);
    expect(isHeavy('zodiac')).toBe(false);
    // A run module that checks flags with a request schema does reach zod: the walk follows ../ paths into api/.
    const run = staticGraph([join(srcDir, 'cli', 'commands', 'numbers', 'search.run.ts')], '.ts');
    expect(heavyImports(run, srcDir).some((f) => f.endsWith('imports zod'))).toBe(true);
  });

  // Start-up budget. `svc keys list` (<= 2.5x bare node) parses its rows with compiled
  // parsers (api/parsers.ts): nothing it loads, dynamic imports included, may load zod statically.
  const keysListPath = (root: string, ext: '.ts' | '.js') => [
    join(root, 'cli', 'commands', 'keys', `index${ext}`),
    join(root, 'cli', `plain.run${ext}`),
    join(root, 'cli', `run-list${ext}`),
    join(root, 'cli', `context${ext}`),
    join(root, 'api', 'resources', `keys${ext}`),
    join(root, 'api', 'client', `client${ext}`),
    join(root, 'config', `resolve${ext}`),
    join(root, 'config', `profiles${ext}`),
    join(root, 'cli', `local-service${ext}`),
  ];
  const zodImports = (graph: Map<string, string[]>, root: string) =>
    [...graph].flatMap(([file, specifiers]) => specifiers.filter((s) => s === 'zod' || s.startsWith('zod/')).map((s) => `${relative(root, file)} imports ${s}`));

  it('src: the `keys list` path (group, run module, run-list, resources, client) never loads zod', () => {
    const graph = staticGraph(keysListPath(srcDir, '.ts'), '.ts');
    expect([...graph.keys()].map((f) => relative(srcDir, f))).toContain(join('api', 'parsers.ts'));
    expect(zodImports(graph, srcDir)).toEqual([]);
  });

  it.runIf(existsSync(join(distDir, 'cli', 'main.js')))('dist: the built `keys list` path never loads zod either', () => {
    const graph = staticGraph(keysListPath(distDir, '.js'), '.js');
    expect(zodImports(graph, distDir)).toEqual([]);
  });

  it('src: main.ts and every group module reach no heavy library and nothing under src/server', () => {
    const graph = staticGraph(startupEntries(srcDir, '.ts'), '.ts');
    expect(graph.size).toBeGreaterThan(30);
    expect(heavyImports(graph, srcDir)).toEqual([]);
  });

  it.runIf(existsSync(join(distDir, 'cli', 'main.js')))('dist: the built entry and group modules do the same', () => {
    const graph = staticGraph(startupEntries(distDir, '.js'), '.js');
    expect(graph.size).toBeGreaterThan(30);
    expect(heavyImports(graph, distDir)).toEqual([]);
  });
});


// The same rule, as the built CLI runs (bench/startup): a preloaded hook records every
// module a real `svc` process loads — ESM through a load hook, CommonJS (commander, undici's files,
// loaded with require) from require.cache at exit — against a real service. The walk above reads
// source text; this catches what it cannot see: a dynamic import() taken on the path, a require().
describe.runIf(existsSync(join(distDir, 'cli', 'main.js')))('modules a real svc process loads', () => {
  let svc: TestService;
  let dir: string;
  let hook: string;
  beforeAll(async () => {
    svc = await startTestService();
    dir = mkdtempSync(join(tmpdir(), 'svc-startup-loads-'));
    hook = join(dir, 'record-loads.mjs');
    const onLoad = `import { appendFileSync } from 'node:fs'; export async function load(url, context, next) { appendFileSync(process.env.SVC_LOADS_FILE, url + '\\n'); return next(url, context); }`;
    writeFileSync(
      hook,
      [
        "import { register, createRequire } from 'node:module';",
        "import { appendFileSync } from 'node:fs';",
        `register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(onLoad)}));`,
        "process.on('exit', () => appendFileSync(process.env.SVC_LOADS_FILE, Object.keys(createRequire(import.meta.url).cache).map((f) => 'cjs:' + f + '\\n').join('')));",
      ].join('\n'),
    );
  });
  afterAll(async () => {
    await svc?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Runs `svc ARGS` (test key) and answers the paths of the modules it loaded. */
  let runs = 0;
  async function loadsOf(args: string[]): Promise<{ code: number; stderr: string; modules: string[] }> {
    const file = join(dir, `loads-${++runs}.txt`);
    writeFileSync(file, '');
    const res = await runSvcProcess(args, { service: svc, key: svc.bootstrap.testKey, env: { NODE_OPTIONS: `--import=${pathToFileURL(hook).href}`, SVC_LOADS_FILE: file } });
    const modules = readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => (l.startsWith('cjs:') ? l.slice(4) : l.startsWith('file:') ? fileURLToPath(l) : l));
    return { code: res.code, stderr: res.stderr, modules };
  }
  const packageOf = (file: string): string | undefined => /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(file)?.[1]?.replace('\\', '/');
  const forbidden = (modules: string[]): string[] => {
    const heavy = modules.filter((f) => {
      const pkg = packageOf(f);
      return pkg !== undefined && (isHeavy(pkg) || HEAVY.includes(`${pkg.split('/')[0]}/`));
    });
    return [...new Set([...heavy.map((f) => packageOf(f)!), ...modules.filter((f) => f.includes(join('dist', 'server')))])];
  };

  it('svc --version loads our version module and nothing else: no commander, no command', async () => {
    const { code, modules } = await loadsOf(['--version']);
    expect(code).toBe(0);
    expect(modules.filter((f) => packageOf(f) !== undefined)).toEqual([]);
    expect(modules.some((f) => f.endsWith(join('dist', 'cli', 'main.js')))).toBe(false);
  });

  it('svc keys list loads commander and its run module, and none of zod, undici, conf, ora, chalk, yaml or the server', async () => {
    const { code, stderr, modules } = await loadsOf(['keys', 'list']);
    expect(code, stderr).toBe(0);
    expect(modules.some((f) => packageOf(f) === 'commander')).toBe(true); // the recorder sees CommonJS
    expect(modules.some((f) => f.endsWith(join('cli', 'plain.run.js')))).toBe(true);
    expect(forbidden(modules)).toEqual([]);
  });

  it('svc messages send loads no zod and no undici when the send goes through; an invalid body loads zod to explain itself', async () => {
    const send = ['messages', 'send', '--from', '+15005550006', '--to', '+14155550123'];
    const ok = await loadsOf([...send, '--body', 'hi']);
    expect(ok.code, ok.stderr).toBe(0);
    expect(forbidden(ok.modules)).toEqual([]);
    const bad = await loadsOf([...send, '--body', 'x'.repeat(1601)]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--body: 1601 characters; the limit is 1600');
    expect(forbidden(bad.modules)).toEqual(['zod']);
  });
});
