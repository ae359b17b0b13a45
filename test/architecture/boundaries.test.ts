// The import boundaries of the modular monolith (house style "The shape"), read from every file's
// imports: the kernel knows no domain, a module is entered only through its index.ts, surfaces reach
// data only through modules, and no two modules lean on each other in a circle.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '../..');
const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => `src/${f}`);
// Static, side-effect, re-export and dynamic imports; `[^;]*?` spans import lists over several lines.
const importPattern = /\b(?:import|export)\s[^;'"]*?\bfrom\s*'([^']+)'|\bimport\s*\(?\s*'([^']+)'/g;
const imports = files.flatMap((from) =>
  [...readFileSync(join(root, from), 'utf8').matchAll(importPattern)].map((m) => {
    const spec = (m[1] ?? m[2])!;
    return { from, spec, to: spec.startsWith('.') ? relative(root, resolve(root, dirname(from), spec)) : spec };
  }),
);
const moduleOf = (path: string) => /^src\/modules\/([^/]+)\//.exec(path)?.[1];
const list = (found: { from: string; spec: string }[]) => found.map((i) => `${i.from} → ${i.spec}`);

test('the kernel imports nothing outside the kernel but packages', () => {
  assert.deepEqual(list(imports.filter((i) => i.from.startsWith('src/kernel/') && i.to.startsWith('src/') && !i.to.startsWith('src/kernel/'))), []);
});

test('a module imports the kernel, the database schema, its own files and other modules only through their index.ts', () => {
  const allowed = (from: string, to: string) =>
    to.startsWith('src/kernel/') || to === 'src/db-schema.ts' || moduleOf(to) === moduleOf(from) || to === `src/modules/${moduleOf(to)}/index.ts`;
  assert.deepEqual(list(imports.filter((i) => moduleOf(i.from) && i.to.startsWith('src/') && !allowed(i.from, i.to))), []);
});

test("surfaces never import a repo, a module's tables, the database schema or kysely", () => {
  const data = (to: string) => to === 'kysely' || to === 'src/db-schema.ts' || /^src\/modules\/.*\/(repo[^/]*|tables)\.ts$/.test(to);
  assert.deepEqual(list(imports.filter((i) => i.from.startsWith('src/surfaces/') && data(i.to))), []);
});

test('no cycle among modules', () => {
  const edges = new Map<string, Set<string>>();
  for (const i of imports) {
    const [a, b] = [moduleOf(i.from), moduleOf(i.to)];
    if (a && b && a !== b) edges.set(a, (edges.get(a) ?? new Set()).add(b));
  }
  // Depth-first from each module: a path that comes back to where it started is a cycle.
  const cycles = new Set<string>();
  const walk = (path: string[]) => {
    for (const next of edges.get(path.at(-1)!) ?? []) {
      // Written from its first module in sorted order, so each cycle is reported once.
      if (next === path[0] && path[0] === [...path].sort()[0]) cycles.add([...path, next].join(' → '));
      else if (!path.includes(next)) walk([...path, next]);
    }
  };
  for (const start of edges.keys()) walk([start]);
  assert.deepEqual([...cycles], []);
});
