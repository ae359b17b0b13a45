import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { v1Routes } from '../../../src/surfaces/v1/index.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

const methods = ['get', 'post', 'put', 'patch', 'delete'];

// Every $ref must resolve and every schema keyword must be JSON Schema 2020-12 (OpenAPI 3.1).
function walk(node: unknown, visit: (n: Record<string, unknown>, path: string) => void, path = '#'): void {
  if (Array.isArray(node)) {
    node.forEach((n, i) => {
      walk(n, visit, `${path}/${i}`);
    });
  } else if (node && typeof node === 'object') {
    visit(node as Record<string, unknown>, path);
    for (const [k, v] of Object.entries(node)) walk(v, visit, `${path}/${k}`);
  }
}

test('/api/openapi.json is an OpenAPI 3.1 document describing every v1 route', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  assert.equal(res.statusCode, 200);
  const doc = res.json();
  assert.equal(doc.openapi, '3.1.0');
  assert.ok(doc.info.title && doc.info.version);
  assert.ok(Array.isArray(doc.servers) && doc.servers[0].url.endsWith('/api/v1'));
  const operationIds = new Set<string>();
  for (const route of v1Routes) {
    const path = route.path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
    const op = doc.paths[path]?.[route.method.toLowerCase()];
    assert.ok(op, `${route.method} ${route.path} is missing`);
    assert.ok(op.summary, `${route.path} has no summary`);
    assert.ok(!operationIds.has(op.operationId), `duplicate operationId ${op.operationId}`);
    operationIds.add(op.operationId);
    const success = op.responses['200'] ?? op.responses['201'];
    assert.ok(success?.content['application/json'].schema, `${route.path} has no response schema`);
    for (const status of ['400', '401', '429', '503']) assert.ok(op.responses[status], `${route.path} lacks ${status}`);
    // Path parameters match the template; query parameters are described.
    const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    assert.deepEqual(
      op.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name),
      inPath,
    );
    for (const p of op.parameters) {
      // Writes (POST /answers) also take the Idempotency-Key header.
      assert.ok(['path', 'query'].includes(p.in) || (p.in === 'header' && p.name === 'Idempotency-Key' && route.method !== 'GET'));
      assert.ok(p.schema && typeof p.schema === 'object', `${route.path} ${p.name} has no schema`);
      if (p.in === 'query' && !['limit', 'cursor', 'updated_since'].includes(p.name)) assert.ok(p.description, `${route.path} ${p.name} is undescribed`);
      if (p.in === 'path') assert.equal(p.required, true);
    }
    if (route.path.startsWith('/me')) continue;
    const names = op.parameters.map((p: any) => p.name);
    // A list that pages (its meta holds nextCursor) takes the paging parameters; a whole list
    // (the council compared: fifty rows, sorted) has a meta without a cursor.
    if (success.content['application/json'].schema.properties?.meta?.properties?.nextCursor) {
      for (const n of ['limit', 'cursor', 'updated_since']) assert.ok(names.includes(n), `${route.path} lacks ${n}`);
    }
  }
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    for (const m of Object.keys(item)) assert.ok(methods.includes(m), `${path}: ${m}`);
  }
  walk(doc, (n, at) => {
    if (typeof n.$ref === 'string') assert.fail(`unresolved $ref at ${at}`);
    if ('nullable' in n && typeof n.nullable === 'boolean') assert.fail(`OpenAPI 3.0 "nullable" at ${at}`);
  });
  for (const scheme of Object.values<any>(doc.components.securitySchemes)) assert.ok(['http', 'apiKey', 'oauth2'].includes(scheme.type));
});

test('the document lists the public data routes the issue asks for', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  for (const p of [
    '/matters',
    '/matters/{record}',
    '/roll-calls',
    '/roll-calls/{id}',
    '/votes',
    '/meetings',
    '/meetings/{id}',
    '/bodies',
    '/people',
    '/money/committees',
    '/money/receipts',
    '/money/expenditures',
    '/money/totals',
    '/lobbying/lobbyists',
    '/lobbying/clients',
    '/lobbying/employers',
    '/lobbying/compensation',
    '/lobbying/expenditures',
    '/lobbying/contributions',
    '/lobbying/activity',
    '/search',
    '/sources',
  ]) {
    assert.ok(doc.paths[p]?.get, p);
  }
  const limit = doc.paths['/matters'].get.parameters.find((p: any) => p.name === 'limit');
  assert.deepEqual([limit.schema.minimum, limit.schema.maximum, limit.schema.default], [1, 200, 50]);
});
