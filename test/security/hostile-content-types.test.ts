// Every route of every surface that reads a body, sent a hostile body under every content type a
// client may name: JSON nested as deep as the body limit allows, a form of a hundred thousand
// fields, and a __proto__ key. Whatever media type a route accepts (application/json, A2A's
// application/a2a+json, forms, GraphQL text), the body goes through a capped parser: the answer is
// a refusal (4xx), never a 5xx. The routes are those the app mounts, found as Fastify registers them.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import type { RouteOptions } from 'fastify';
import { createFastify, MAX_BODY_BYTES, mountSurfaces } from '../../src/app.ts';
import { allScopes } from '../../src/kernel/access.ts';
import { operator } from '../../src/kernel/actor.ts';
import { startTestContext } from '../helpers/context.ts';

const t = await startTestContext();
const app = createFastify(t.ctx);
const routes: RouteOptions[] = [];
app.addHook('onRoute', (route) => {
  routes.push(route);
});
await mountSurfaces(app, t.ctx);
await app.ready();
after(async () => {
  await app.close();
  await t.close();
});

const account = await t.ctx.services.accounts.create({ email: 'hostile-types@example.org' });
await t.ctx.services.accounts.setLimits(operator, {
  accountId: account.id,
  limits: { requestsPerDay: 10_000_000, requestsPerMinute: 10_000_000, aiAnswersPerDay: 10_000_000 },
});
const personalScopes = allScopes.filter((s) => !s.startsWith('team.') && !s.startsWith('people.'));
const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'hostile', scopes: personalScopes });

/** Media types a client may send: JSON and its +json kin, forms, text, GraphQL, bytes. */
const contentTypes = [
  'application/json',
  'application/json; charset=utf-8',
  'application/a2a+json',
  'application/ld+json',
  'application/merge-patch+json',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'text/plain',
  'application/graphql',
  'application/octet-stream',
];

const depth = Math.floor((MAX_BODY_BYTES - 16) / 2);
const bodies: Record<string, string> = {
  'deep JSON': `${'['.repeat(depth)}${']'.repeat(depth)}`,
  'deep object': `${'{"a":'.repeat(Math.floor(depth / 3))}1${'}'.repeat(Math.floor(depth / 3))}`,
  'a form of 100,000 fields': 'a=1&'.repeat(100_000),
  __proto__: '{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}',
};

/** Each path parameter filled with a plausible id. */
const concrete = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, 'x1').replace(/\*/g, 'x');

const bodyRoutes = routes.flatMap((route) => {
  const methods = ([] as string[]).concat(route.method).filter((m) => m !== 'GET' && m !== 'HEAD' && m !== 'OPTIONS');
  return methods.map((method) => ({ method, url: concrete(route.url) }));
});
const unique = [...new Map(bodyRoutes.map((r) => [`${r.method} ${r.url}`, r])).values()];

test('the app has body-reading routes on every surface', () => {
  for (const prefix of ['/api/v1/', '/api/v2/', '/api/graphql', '/mcp', '/a2a', '/oauth/', '/agent/']) {
    assert.ok(
      unique.some((r) => r.url.startsWith(prefix)),
      `no route under ${prefix}`,
    );
  }
});

for (const route of unique) {
  test(`${route.method} ${route.url}: hostile bodies of every content type are refused, never a 5xx`, async () => {
    const failures: string[] = [];
    for (const type of contentTypes) {
      for (const [name, payload] of Object.entries(bodies)) {
        const res = await app.inject({
          method: route.method as 'POST',
          url: route.url,
          headers: { authorization: `Bearer ${key}`, 'content-type': type, origin: 'http://council.test' },
          payload,
        });
        if (res.statusCode >= 500) failures.push(`${type}, ${name}: ${res.statusCode} ${res.body.slice(0, 120)}`);
        if (name === '__proto__' && ({} as Record<string, unknown>).polluted !== undefined) failures.push(`${type}: the prototype was polluted`);
      }
    }
    assert.deepEqual(failures, []);
  });
}
