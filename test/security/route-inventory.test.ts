// The inventory (house style, habit 7): the operation catalogue and every binding of it. It fails
// when an operation lacks input or output schemas, a limit class or any binding, when a binding
// names an operation that does not exist, when a route lacks a response schema, when a private
// route may be cached, when a list route pages differently, or when a team route has no
// other-team case.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { scopeCatalogue } from '../../src/kernel/access.ts';
import { dashboardOperations } from '../../src/surfaces/dashboard/viewer.ts';
import { graphqlOperations } from '../../src/surfaces/graphql/resolvers.ts';
import { buildOpenApi } from '../../src/surfaces/http/openapi.ts';
import { createToolbox } from '../../src/surfaces/mcp/tools.ts';
import { pageOperations } from '../../src/surfaces/pages/index.ts';
import { v2OpenApi } from '../../src/surfaces/v2/openapi.ts';
import { settingsOperations } from '../../src/surfaces/web/settings-viewer.ts';
import { startTestContext } from '../helpers/context.ts';
import { createFastify } from '../../src/app.ts';
import { oauthSurface } from '../../src/surfaces/oauth/index.ts';
import { a2aBindings } from './a2a-cases.ts';
import { oauthRoutes } from './oauth-cases.ts';
import { keyKindFor, needsOtherTeamCase, otherTeamCases, routeTable } from './route-table.ts';

const t = await startTestContext();
after(async () => {
  await t.close();
});
const rows = routeTable(t.ctx);
const catalogue = t.ctx.performer.all();
const plain = (schema: unknown): any => JSON.parse(JSON.stringify(schema ?? null));

/** Every binding of every surface: operation id → where it is bound. */
function bindings(): Map<string, string[]> {
  const where = new Map<string, string[]>();
  const add = (id: string, by: string) => where.set(id, [...(where.get(id) ?? []), by]);
  for (const row of rows) add(row.operationId, row.name);
  for (const id of dashboardOperations) add(id, 'dashboard');
  for (const id of pageOperations) add(id, 'pages');
  for (const id of settingsOperations) add(id, 'web settings');
  for (const b of a2aBindings) add(b.operationId, `a2a ${b.method}`);
  for (const id of graphqlOperations) add(id, 'graphql');
  for (const tool of createToolbox(catalogue).all) add(tool.operation.id, `mcp ${tool.name}`);
  return where;
}

test('every operation has input and output schemas, a limit class, an access and a summary', () => {
  assert.ok(catalogue.length > 50);
  for (const op of catalogue) {
    assert.equal(plain(op.input)?.type, 'object', `${op.id}: input is not an object schema`);
    const output = plain(op.output);
    assert.ok(output && (output.type || output.anyOf || output.oneOf), `${op.id}: no output schema`);
    assert.ok(['data', 'me', 'ai', 'none'].includes(op.limit), `${op.id}: no limit class`);
    assert.ok(['any', 'team', 'personal'].includes(op.access.context), `${op.id}: no access context`);
    for (const scope of op.access.scopes) assert.ok(Object.hasOwn(scopeCatalogue, scope), `${op.id}: unknown scope ${scope}`);
    assert.ok(op.summary.trim().length > 0, `${op.id}: no summary`);
    assert.ok(op.effect === 'read' || op.effect === 'write', `${op.id}: no effect`);
  }
});

test('every operation has at least one binding, and every binding names an operation', () => {
  const bound = bindings();
  const ids = new Set(catalogue.map((op) => op.id));
  const unbound = catalogue.filter((op) => !bound.has(op.id)).map((op) => op.id);
  assert.deepEqual(unbound, [], 'operations no surface binds');
  const unknown = [...bound.keys()].filter((id) => !ids.has(id));
  assert.deepEqual(unknown, [], 'bindings of operations that do not exist');
});

test('reads are bound to GET routes and writes to POST, PUT, PATCH or DELETE', () => {
  for (const row of rows) {
    assert.equal(row.def.method === 'GET', row.operation.effect === 'read', `${row.name}: ${row.operation.effect} operation on ${row.def.method}`);
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

test('team, personal and people routes are private (Cache-Control: private, no-store) and never cached', () => {
  for (const row of rows) {
    const personal = row.def.path === '/me' || row.def.path.startsWith('/me/') || row.op.context === 'personal';
    const teamOrPeople = keyKindFor(row.op) === 'team' || row.def.path.startsWith('/team/');
    if (personal || teamOrPeople) {
      assert.equal(row.operation.private, true, `${row.name} must be private`);
      assert.equal(row.operation.cached, false, `${row.name} must not be kept in memory`);
    }
  }
});

test('every list route takes limit 1-200 (default 50) and cursor, and answers { data, meta: { nextCursor } }', () => {
  const lists = rows.filter((r) => plain(r.operation.output)?.properties?.meta?.properties?.nextCursor);
  assert.ok(lists.length > 0);
  for (const row of lists) {
    const response = plain(row.operation.output);
    assert.equal(response.properties.data?.type, 'array', `${row.name}: data is not an array`);
    const q = plain(row.parts.querystring)?.properties ?? {};
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
      surface === 'v2'
        ? v2OpenApi(t.ctx, defs)
        : buildOpenApi(t.ctx.performer.get, defs, { title: 'v1', version: '1', serverUrl: 'http://council.test/api/v1', withScopes: false });
    for (const row of rows.filter((r) => r.surface === surface)) {
      const op = doc.paths[row.def.path.replace(/:(\w+)/g, '{$1}')]?.[row.def.method.toLowerCase()];
      assert.ok(op?.operationId, `${row.name}: not in the ${surface} description`);
      if (surface === 'v2') assert.deepEqual(op['x-scopes'], [...row.op.scopes], row.name);
      else assert.equal(op['x-scopes'], undefined);
    }
  }
});

test('every MCP tool has a model-safe name, object input and output schemas, and a read-only hint from its effect', () => {
  const tools = createToolbox(catalogue).all;
  // GraphQL's batch loaders are no tools: each part they load is a tool one record at a time.
  assert.equal(tools.length, catalogue.filter((op) => !op.tags.includes('batch')).length);
  assert.ok(catalogue.some((op) => op.tags.includes('batch')));
  for (const tool of tools) {
    assert.match(tool.name, /^[a-z0-9_]{1,64}$/, tool.operation.id);
    assert.equal(tool.listing.inputSchema.type, 'object', tool.name);
    assert.equal(tool.listing.outputSchema.type, 'object', tool.name);
    assert.equal(tool.listing.annotations?.readOnlyHint, tool.operation.effect === 'read', tool.name);
    assert.ok(tool.listing.description?.startsWith(tool.operation.summary), tool.name);
  }
  assert.equal(tools.find((tool) => tool.operation.id === 'answers.create')?.name, 'answer_question');
});

test('every route of the OAuth surface (open by design, outside the catalogue) is listed with its guard', async () => {
  const app = createFastify(t.ctx);
  const mounted: string[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) if (method !== 'HEAD') mounted.push(`${method} ${route.url}`);
  });
  await app.register(oauthSurface(t.ctx));
  await app.ready();
  await app.close();
  const listed = oauthRoutes.map((r) => `${r.method} ${r.path}`);
  assert.deepEqual([...mounted].sort(), [...listed].sort());
});
