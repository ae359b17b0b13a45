// Route schemas compile at a route's first request (src/surfaces/http/lazy-schemas.ts), so a
// schema the compilers refuse would no longer stop the start. Here every schema of every mounted
// route is compiled at once, with Fastify's own compilers and the service's options: such a
// schema fails the suite instead of a user's first request.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ValidatorSelector from '@fastify/ajv-compiler';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import { ajvOptions } from '../../../src/surfaces/http/lazy-schemas.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { mountedRoutes } from '../../helpers/routes.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(() => t.close());

const parts = ['body', 'querystring', 'params', 'headers'] as const;

test('every mounted route’s request and response schemas compile with the service’s compilers', async () => {
  const routes = (await mountedRoutes(t.ctx)).filter((r) => r.schema !== undefined);
  const validator = (ValidatorSelector as any)()({}, ajvOptions);
  const serializer = (SerializerSelector as any)()({}, {});
  let compiled = 0;
  for (const { method, url, schema = {} } of routes) {
    for (const httpPart of parts) {
      if (schema[httpPart] === undefined) continue;
      assert.equal(httpPart === 'headers', false, `${method} ${url}: headers are not validated by schema (lazy-schemas.ts)`);
      assert.equal(typeof validator({ schema: schema[httpPart], method, url, httpPart }), 'function', `${method} ${url} ${httpPart}`);
      compiled++;
    }
    for (const [httpStatus, response] of Object.entries(schema.response ?? {})) {
      assert.equal(typeof serializer({ schema: response, method, url, httpStatus }), 'function', `${method} ${url} ${httpStatus}`);
      compiled++;
    }
  }
  // The service’s routes carry schemas: an inventory that found none would prove nothing.
  assert.ok(routes.length > 100 && compiled > 200, `${routes.length} routes, ${compiled} schemas`);
});
