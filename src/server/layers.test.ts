import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { circlePath, importCircles, importGraph, sourceFilesUnder } from '../../test/helpers/import-graph.js';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The server's layers, lowest first; a file may import its own layer or a lower one, never a higher
// one. The webhook delivery machinery sits beside routes and HTTP: it depends on the domain, never
// the reverse. deps.ts (the types of what the root builds) sits with the edge so routes can name them.
const SERVER = dirname(fileURLToPath(import.meta.url));

const LAYERS: Array<{ name: string; match: (path: string) => boolean }> = [
  { name: 'base (world, clock, ids)', match: (p) => p.startsWith('world/') || p === 'clock.ts' || p === 'ids.ts' },
  { name: 'storage', match: (p) => p.startsWith('storage/') },
  // The scheduler runs each job in a domain transaction: it sits with the domain.
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
  // One engine adapter holds the SQLite driver and every line of SQL (storage/sqlite/).
  { pkg: /^better-sqlite3$/, allowedFrom: (p) => p.startsWith('storage/sqlite/') },
  // The PostgreSQL engine holds the `pg` driver, as the SQLite one holds its own.
  { pkg: /^pg(\/|$)/, allowedFrom: (p) => p.startsWith('storage/postgres/') },
];

/** The storage engines: each holds its driver and its SQL; neither imports the other. */
const ENGINES = ['storage/sqlite/', 'storage/postgres/'];
/** The repositories written once for both engines: SQL with no driver, importing neither engine. */
const SHARED_SQL = 'storage/shared/';

/** SQL as a string in the source: a statement keyword followed by what makes it one. */
const SQL_TEXT = /\b(SELECT\s+[\w*(]|INSERT\s+(OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(TABLE|INDEX|UNIQUE)\b|PRAGMA\b|SAVEPOINT\b|BEGIN\b\s*['"`;]|COMMIT\b\s*['"`;])/;

const layerOf = (path: string): number => LAYERS.findIndex((l) => l.match(path));

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"]([^'"]+)['"]/gm)].map((m) => m[1]!);
}

const files = sourceFilesUnder(SERVER).map((f) => relative(SERVER, f).split('\\').join('/'));

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

  it('keeps SQL text inside the engines (storage/sqlite/, storage/postgres/) and the repositories they share (storage/shared/)', () => {
    const withSql = files
      .filter((file) => ![...ENGINES, SHARED_SQL].some((place) => file.startsWith(place)))
      .filter((file) => SQL_TEXT.test(readFileSync(join(SERVER, file), 'utf8')));
    expect(withSql).toEqual([]);
  });

  it('keeps each engine to itself: no engine imports another, the shared repositories import neither, and the PostgreSQL one is only ever imported dynamically', () => {
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
        const shared = file.startsWith(SHARED_SQL);
        if (to && from !== to && (from || shared || (to === 'storage/postgres/' && !typeOnly))) crossing.push(`${file} -> ${target}`);
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
// be read, tested or moved alone, and a type they share lives in neither's own place. So every arrow
// among the service's modules and svc/testing's points one way: a type two modules share lives in
// the lower one (or a small types module both import). Lazy `import('…')` counts too.
const SRC = resolve(SERVER, '..');

describe('import circles', () => {
  it('src/call-tests, shared by the CLI and svc/testing, imports only src/api of the project', () => {
    const dir = join(SRC, 'call-tests');
    const outside = sourceFilesUnder(dir).flatMap((file) =>
      importsOf(file)
        .filter((s) => s.startsWith('.'))
        .map((s) => relative(SRC, resolve(dirname(file), s)).split('\\').join('/'))
        .filter((target) => !target.startsWith('api/') && !target.startsWith('call-tests/'))
        .map((target) => `${relative(SRC, file)} -> ${target}`),
    );
    expect(outside).toEqual([]);
  });

  it('the walk names a circle by a closed path through it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts', 'd.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
    ]);
    expect(importCircles(graph).map((circle) => circlePath(graph, circle))).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']]);
  });

  it('none anywhere under src, type-only and lazy imports included', () => {
    const graph = importGraph(sourceFilesUnder(SRC));
    expect(graph.get(join(SRC, 'testing/index.ts'))).toContain(join(SRC, 'testing/service.ts')); // lazy imports are read
    const named = importCircles(graph).map((circle) => {
      const path = circlePath(graph, circle).map((f) => relative(SRC, f).split('\\').join('/'));
      return path.join(' -> ') + (circle.length > path.length - 1 ? ` (${circle.length} files circle)` : '');
    });
    expect(named).toEqual([]);
  });
});
