// The route inventory (house style, habit 7): fails when a route of any JSON surface lacks an
// operation id, a response schema or a limit class, when a private route may be cached, when a
// list route pages differently, or when a team route has no other-team case.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { operations, scopeCatalogue } from '../../src/kernel/operations.ts';
import { buildOpenApi } from '../../src/surfaces/http/openapi.ts';
import { v2OpenApi } from '../../src/surfaces/v2/openapi.ts';
import { startTestContext } from '../helpers/context.ts';
import { keyKindFor, needsOtherTeamCase, otherTeamCases, routeTable } from './route-table.ts';

const t = await startTestContext();
after(async () => {
  await t.close();
});
const rows = routeTable(t.ctx);
const plain = (schema: unknown): any => JSON.parse(JSON.stringify(schema ?? null));

test('every route names a known operation id with a limit class', () => {
  for (const row of rows) {
    assert.ok(Object.hasOwn(operations, row.operationId), `${row.name}: unknown operation "${row.operationId}"`);
    assert.ok(['data', 'me', 'ai', 'none'].includes(row.op.limit), `${row.name}: no limit class`);
    for (const scope of row.op.scopes) assert.ok(Object.hasOwn(scopeCatalogue, scope), `${row.name}: unknown scope ${scope}`);
  }
});

test('every route has a response schema (it filters what is sent) and a summary', () => {
  for (const row of rows) {
    const schema = plain(row.def.response);
    assert.ok(schema && typeof schema === 'object' && (schema.type || schema.anyOf || schema.oneOf), `${row.name}: no response schema`);
    assert.ok(row.def.summary.trim().length > 0, `${row.name}: no summary`);
  }
});

test('each surface has one route per method and path', () => {
  for (const surface of ['v1', 'v2']) {
    const seen = new Set<string>();
    for (const row of rows.filter((r) => r.surface === surface)) {
      const id = `${row.def.method} ${row.def.path}`;
      assert.ok(!seen.has(id), `${surface}: ${id} twice`);
      seen.add(id);
    }
  }
});

test('team, personal and people routes are private (Cache-Control: private, no-store)', () => {
  for (const row of rows) {
    const personal = row.def.path === '/me' || row.def.path.startsWith('/me/') || row.op.context === 'personal';
    const teamOrPeople = keyKindFor(row.op) === 'team' || row.def.path.startsWith('/team/');
    if (personal || teamOrPeople) assert.equal(row.def.private, true, `${row.name} must be private`);
  }
});

test('every list route takes limit 1-200 (default 50) and cursor, and answers { data, meta: { nextCursor } }', () => {
  const lists = rows.filter((r) => plain(r.def.response)?.properties?.meta?.properties?.nextCursor);
  assert.ok(lists.length > 0);
  for (const row of lists) {
    const response = plain(row.def.response);
    assert.equal(response.properties.data?.type, 'array', `${row.name}: data is not an array`);
    const q = plain(row.def.querystring)?.properties ?? {};
    assert.deepEqual([q.limit?.minimum, q.limit?.maximum, q.limit?.default], [1, 200, 50], `${row.name}: limit`);
    assert.equal(q.cursor?.type, 'string', `${row.name}: cursor`);
  }
});

test('every team route addressing an id has an other-team case (or says why its ids are not team-owned)', () => {
  const missing = rows.filter((row) => needsOtherTeamCase(row) && !otherTeamCases[row.operationId]).map((row) => `${row.operationId} (${row.name})`);
  assert.deepEqual(missing, [], `add otherTeamCases entries in test/security/route-table.ts for:\n${[...new Set(missing)].join('\n')}`);
});

test('the descriptions hold every route; v2 lists each operation with its x-scopes', () => {
  for (const surface of ['v1', 'v2'] as const) {
    const defs = rows.filter((r) => r.surface === surface).map((r) => r.def);
    const doc: any =
      surface === 'v2' ? v2OpenApi(t.ctx, defs) : buildOpenApi(defs, { title: 'v1', version: '1', serverUrl: 'http://council.test/api/v1', withScopes: false });
    for (const row of rows.filter((r) => r.surface === surface)) {
      const op = doc.paths[row.def.path.replace(/:(\w+)/g, '{$1}')]?.[row.def.method.toLowerCase()];
      assert.ok(op?.operationId, `${row.name}: not in the ${surface} description`);
      if (surface === 'v2') assert.deepEqual(op['x-scopes'], [...row.op.scopes], row.name);
      else assert.equal(op['x-scopes'], undefined);
    }
  }
});
