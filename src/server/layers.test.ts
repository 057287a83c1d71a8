import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The server's layers, lowest first; a file may import its own layer or a lower one, never a higher
// one. The webhook delivery machinery sits beside routes and HTTP: it depends on the domain, never
// the reverse. deps.ts (the types of what the root builds) sits with the edge so routes can name them.
const SERVER = dirname(fileURLToPath(import.meta.url));

const LAYERS: Array<{ name: string; match: (path: string) => boolean }> = [
  { name: 'base (world, clock, ids)', match: (p) => p.startsWith('world/') || p === 'clock.ts' || p === 'ids.ts' },
  { name: 'storage', match: (p) => p.startsWith('storage/') },
  // The scheduler runs each job in a domain transaction (issue 25): it sits with the domain.
  { name: 'domain', match: (p) => p.startsWith('domain/') || p === 'errors.ts' || p === 'scheduler.ts' },
  { name: 'views', match: (p) => p.startsWith('views/') },
  { name: 'edge (routes, http, webhook machinery)', match: (p) => /^(routes|http|webhooks)\//.test(p) || p === 'deps.ts' },
  { name: 'composition root', match: (p) => ['app.ts', 'main.ts', 'compose.ts', 'bootstrap.ts', 'local-state.ts', 'snapshot-trust.ts', 'reset-point.ts', 'worker-link.ts'].includes(p) },
];

/** Known imports that still go up, each with its reason; the list only shrinks. */
// None: the price table the simulated inventory quotes lives in src/api/values (contract §11), below
// every server layer. A new entry here needs a reason beside it.
const KNOWN_EXCEPTIONS = new Set<string>([]);

/** Packages only some layers may use: the domain sees neither HTTP nor SQLite. */
const PACKAGE_RULES: Array<{ pkg: RegExp; allowedFrom: (path: string) => boolean }> = [
  { pkg: /^fastify/, allowedFrom: (p) => /^(routes|http)\//.test(p) || p === 'app.ts' || p === 'main.ts' },
  // issue 25: one engine adapter holds the SQLite driver and every line of SQL (storage/sqlite/).
  { pkg: /^better-sqlite3$/, allowedFrom: (p) => p.startsWith('storage/sqlite/') },
  // issue 26: the PostgreSQL engine holds the `pg` driver, as the SQLite one holds its own.
  { pkg: /^pg(\/|$)/, allowedFrom: (p) => p.startsWith('storage/postgres/') },
];

/** The storage engines: each holds its driver and its SQL; neither imports the other. */
const ENGINES = ['storage/sqlite/', 'storage/postgres/'];

/** SQL as a string in the source: a statement keyword followed by what makes it one. */
const SQL_TEXT = /\b(SELECT\s+[\w*(]|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(TABLE|INDEX|UNIQUE)\b|PRAGMA\b|SAVEPOINT\b|BEGIN\b\s*['"`;]|COMMIT\b\s*['"`;])/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

const layerOf = (path: string): number => LAYERS.findIndex((l) => l.match(path));

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

const files = sourceFiles(SERVER).map((f) => relative(SERVER, f).split('\\').join('/'));

describe('server layers', () => {
  it('places every file under src/server in a layer', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((f) => layerOf(f) < 0)).toEqual([]);
  });

  it('never imports up a layer', () => {
    const upward: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(join(SERVER, file))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(SERVER, resolve(SERVER, dirname(file), spec)).split('\\').join('/').replace(/\.js$/, '.ts');
        if (target.startsWith('..')) continue; // src/api, src/config, src/webhooks: shared with the client
        const edge = `${file} -> ${target}`;
        if (layerOf(target) > layerOf(file) && !KNOWN_EXCEPTIONS.has(edge)) upward.push(`${edge} (${LAYERS[layerOf(file)]!.name} imports ${LAYERS[layerOf(target)]!.name})`);
      }
    }
    expect(upward).toEqual([]);
  });

  it('keeps fastify out of everything but HTTP, and each database driver out of everything but its engine', () => {
    const misplaced: string[] = [];
    for (const file of files) {
      for (const spec of importsOf(join(SERVER, file))) {
        for (const rule of PACKAGE_RULES) if (rule.pkg.test(spec) && !rule.allowedFrom(file)) misplaced.push(`${file} -> ${spec}`);
      }
    }
    expect(misplaced).toEqual([]);
  });

  it('keeps SQL text inside the engines (storage/sqlite/, storage/postgres/)', () => {
    const withSql = files
      .filter((file) => !ENGINES.some((engine) => file.startsWith(engine)))
      .filter((file) => SQL_TEXT.test(readFileSync(join(SERVER, file), 'utf8')));
    expect(withSql).toEqual([]);
  });

  it('keeps each engine to itself: no engine imports another, and the PostgreSQL one is only ever imported dynamically', () => {
    const crossing: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(SERVER, file), 'utf8');
      for (const spec of importsOf(join(SERVER, file))) {
        if (!spec.startsWith('.')) continue;
        const target = relative(SERVER, resolve(SERVER, dirname(file), spec)).split('\\').join('/');
        const from = ENGINES.find((e) => file.startsWith(e));
        const to = ENGINES.find((e) => target.startsWith(e));
        // A static import of the PostgreSQL engine would load `pg` on every start of the CLI and the
        // SQLite-only service: only `await import(…)` may reach it from outside (a type import is erased).
        const typeOnly = new RegExp(`import\\s+type\\b[^'"]*['"]${spec.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}['"]`).test(text);
        if (to && from !== to && (from || (to === 'storage/postgres/' && !typeOnly))) crossing.push(`${file} -> ${target}`);
      }
    }
    expect(crossing).toEqual([]);
  });

  it('still lists only exceptions that exist', () => {
    const edges = new Set(
      files.flatMap((file) =>
        importsOf(join(SERVER, file))
          .filter((s) => s.startsWith('.'))
          .map((s) => `${file} -> ${relative(SERVER, resolve(SERVER, dirname(file), s)).split('\\').join('/').replace(/\.js$/, '.ts')}`),
      ),
    );
    expect([...KNOWN_EXCEPTIONS].filter((e) => !edges.has(e))).toEqual([]);
  });
});

// An import circle, type-only imports included, means two modules each need the other: neither can
// be read, tested or moved alone, and a type shared between them lives in neither's own place. So
// every arrow among the service's modules and svc/testing's points one way: a type two modules
// share lives in the lower one (or a small types module both import). Lazy `import('…')` counts
// too: it defers the loading, not the dependency.
const CYCLE_ROOTS = [SERVER, resolve(SERVER, '../testing')];
const SRC = resolve(SERVER, '..');

/** Every module a file names: `import`/`export … from` (`import type` too), bare `import '…'`, and `import('…')`. */
function specifiersOf(text: string): string[] {
  const fromClauses = [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/gm)];
  const bare = [...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)];
  const lazy = [...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)];
  return [...fromClauses, ...bare, ...lazy].map((m) => m[1]!);
}

/** The import graph of the non-test modules under `roots`, paths relative to src/, each relative specifier resolved (`.js` is the `.ts` beside it). */
function importGraph(roots: string[]): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const rel = (abs: string) => relative(SRC, abs).split('\\').join('/');
  for (const file of roots.flatMap(sourceFiles)) {
    const targets = specifiersOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
      .filter((abs) => existsSync(abs))
      .map(rel);
    graph.set(rel(file), [...new Set(targets)]);
  }
  return graph;
}

/** The import circles of `graph`: one per strongly connected component (Tarjan), each named as a closed path. */
function importCycles(graph: Map<string, string[]>): string[] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue; // outside the roots (src/api…): no circle can pass through it back in
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)!.includes(v)) components.push(component);
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  // Within a component every file reaches every other: the shortest way back to its first file is a circle.
  return components.map((component) => {
    const members = new Set(component);
    const start = [...members].sort()[0]!;
    const cameFrom = new Map<string, string>();
    const queue = [start];
    for (let i = 0; i < queue.length; i++) {
      for (const w of graph.get(queue[i]!)!) {
        if (!members.has(w)) continue;
        if (w === start) {
          const path = [start];
          for (let at: string | undefined = queue[i]; at !== undefined && at !== start; at = cameFrom.get(at)) path.splice(1, 0, at);
          return [...path, start].join(' -> ') + (members.size > path.length ? ` (one of ${members.size} files circling: ${[...members].sort().join(', ')})` : '');
        }
        if (!cameFrom.has(w)) {
          cameFrom.set(w, queue[i]!);
          queue.push(w);
        }
      }
    }
    return component.join(' -> ');
  });
}

describe('import circles', () => {
  it('finds one in a graph that has one, and names it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
    ]);
    expect(importCycles(graph)).toEqual(['a.ts -> b.ts -> c.ts -> a.ts']);
  });

  it('has none among src/server and src/testing, type-only and lazy imports included', () => {
    const graph = importGraph(CYCLE_ROOTS);
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get('testing/index.ts')).toContain('testing/service.ts'); // lazy imports are read
    expect(importCycles(graph)).toEqual([]);
  });
});
