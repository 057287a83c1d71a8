import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

// The import graph of source folders and its circles, for the tests that keep arrows one way
// (src/cli/registry.test.ts, src/server/layers.test.ts). Type-only imports count: a circle of types
// still ties the modules together. Lazy `import('…')` counts too: it defers the loading, not the
// dependency.

/** Every non-test `.ts` file under `dir`. */
export function sourceFilesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sourceFilesUnder(path) : path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every module a source names: `import`/`export … from` (`import type` too), a bare `import '…'`, and `import('…')`. */
export function importsOf(source: string): string[] {
  const out: string[] = [];
  for (const m of source.matchAll(/^\s*(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

/**
 * Each file's relative imports, resolved to absolute paths (`./x.js` is the `x.ts` beside it), keeping
 * only those that exist and that `keep` accepts (by default: the files given).
 */
export function importGraph(files: readonly string[], keep?: (path: string) => boolean): Map<string, string[]> {
  const given = new Set(files);
  const kept = keep ?? ((path: string) => given.has(path));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(readFileSync(file, 'utf8'))
      .filter((spec) => spec.startsWith('.'))
      .map((spec) => resolve(dirname(file), spec.replace(/\.js$/, '.ts')))
      .filter((target) => kept(target) && existsSync(target));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** The strongly connected components (Tarjan) of more than one file, or of a file importing itself: the circles, each sorted. */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(scc.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * One closed path through a circle, from its first file back to it (the shortest: a breadth-first
 * walk that stays inside the circle), to name in a failure.
 */
export function circlePath(graph: ReadonlyMap<string, readonly string[]>, circle: readonly string[]): string[] {
  const members = new Set(circle);
  const start = circle[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const at = queue[i]!;
    for (const next of graph.get(at) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [start];
        for (let back: string | undefined = at; back !== undefined && back !== start; back = cameFrom.get(back)) path.splice(1, 0, back);
        return [...path, start];
      }
      if (!cameFrom.has(next) && next !== start) {
        cameFrom.set(next, at);
        queue.push(next);
      }
    }
  }
  return [...circle, start];
}
