// `svc --help` must stay near bare node startup (spec: conventions; brief for this module), so
// the heavy libraries may only be reached through dynamic import(). This walks the static import
// graph from index.ts and fails if any of them is imported at module top level.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const HEAVY = ['chalk', 'yaml', 'cli-table3', 'ora'];

// Static value imports and re-exports; `import type` / `export type` are erased by tsc.
function staticSpecifiers(source: string): string[] {
  const pattern = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  return [...source.matchAll(pattern)].map((match) => match[1]);
}

function staticGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const visit = (file: string): void => {
    if (graph.has(file)) return;
    const specifiers = staticSpecifiers(readFileSync(join(here, file), 'utf8'));
    graph.set(file, specifiers);
    for (const spec of specifiers) if (spec.startsWith('./')) visit(spec.slice(2).replace(/\.js$/, '.ts'));
  };
  visit(entry);
  return graph;
}

describe('startup cost', () => {
  it('finds static imports (the check itself works)', () => {
    expect(staticSpecifiers("import { Chalk } from 'chalk';\nimport type { X } from 'yaml';")).toEqual(['chalk']);
    expect(staticGraph('colors.ts').get('colors.ts')).toContain('chalk');
  });

  it('imports no heavy library at top level anywhere reachable from index.ts', () => {
    const graph = staticGraph('index.ts');
    expect(graph.size).toBeGreaterThan(5);
    for (const [file, specifiers] of graph) {
      for (const heavy of HEAVY) expect(specifiers, `${file} imports ${heavy}`).not.toContain(heavy);
    }
  });
});
