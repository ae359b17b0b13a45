// Errors the framework and the HTTP parser meet before any route (a malformed percent escape, an
// over-long path parameter, headers too large, a method no one knows, a body of the wrong type)
// come out in the shape of the path's surface: v1 `{ detail, code }`, v2 `{ error }`, a page for
// the website — never the framework's own shape.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { type AddressInfo, connect } from 'node:net';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

let t: TestContext;
let port: number;
let key: string;
before(async () => {
  t = await startTestContext();
  const account = await t.ctx.services.accounts.create({ email: 'framework@example.org' });
  ({ key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'k', scopes: ['public.read', 'me.follows.write'] }));
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
after(async () => {
  await t.close();
});

const auth = () => ({ authorization: `Bearer ${key}` });

function assertShape(
  surface: 'v1' | 'v2' | 'page',
  res: { statusCode: number; headers: Record<string, unknown>; body: string },
  status: number,
  code?: string,
) {
  assert.equal(res.statusCode, status, res.body);
  if (surface === 'page') {
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.match(res.body, /<!doctype html>/i);
    return;
  }
  const body = JSON.parse(res.body);
  if (surface === 'v1') assert.deepEqual(Object.keys(body).sort(), ['code', 'detail']);
  else assert.deepEqual(Object.keys(body), ['error']);
  const got = surface === 'v1' ? body.code : body.error.code;
  if (code) assert.equal(got, code);
  assert.doesNotMatch(res.body, /FST_|statusCode/);
}

test('a malformed percent escape is 400 in the surface’s shape', async () => {
  assertShape('v1', await t.app.inject({ url: '/api/v1/matters/%ff', headers: auth() }), 400, 'invalid_request');
  assertShape('v2', await t.app.inject({ url: '/api/v2/matters/%ff', headers: auth() }), 400, 'invalid_request');
  assertShape('page', await t.app.inject({ url: '/signin/%ff' }), 400);
});

test('a path parameter longer than any identifier is 414 in the surface’s shape', async () => {
  const long = 'x'.repeat(600);
  assertShape('v1', await t.app.inject({ url: `/api/v1/matters/${long}`, headers: auth() }), 414, 'uri_too_long');
  assertShape('v2', await t.app.inject({ url: `/api/v2/matters/${long}`, headers: auth() }), 414, 'uri_too_long');
  assertShape('page', await t.app.inject({ url: `/dashboard/${long}` }), 414);
});

test('JSON sent as text/plain is 415 saying what to send', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v2/me/follows',
    headers: { ...auth(), 'content-type': 'text/plain' },
    payload: '{"type":"search","refId":"x"}',
  });
  assertShape('v2', res, 415, 'unsupported_media_type');
  assert.match(res.json().error.message, /Content-Type: application\/json/);
});

/** A raw request on a real socket, so the HTTP parser itself sees it. */
function raw(text: string): Promise<{ statusCode: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(text));
    let data = '';
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body = ''] = data.split('\r\n\r\n');
      const [status, ...lines] = head!.split('\r\n');
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
      resolve({ statusCode: Number(status!.split(' ')[1]), headers, body });
    });
  });
}

test('headers too large and unknown methods, refused by the HTTP parser, answer in the JSON shape of their path', async () => {
  const big = 'x'.repeat(20 * 1024);
  assertShape('v2', await raw(`GET /api/v2/matters HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`), 431, 'headers_too_large');
  assertShape('v1', await raw(`GET /api/v1/matters HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`), 431, 'headers_too_large');
  assertShape('v1', await raw('FROB /api/v1/matters HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'), 400, 'invalid_request');
  // An ordinary request on the same server is still answered.
  const ok = await new Promise<number>((resolve, reject) => {
    const req = httpRequest({ port, host: '127.0.0.1', path: '/api/v1/me', headers: auth() }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end();
  });
  assert.equal(ok, 200);
});

/** The shape of each protocol surface's errors: OAuth's (RFC 6749 §5.2), JSON-RPC's (§5.1), GraphQL's. */
const protocolShapes = {
  oauth: (body: any) => typeof body.error === 'string' && typeof body.error_description === 'string' && Object.keys(body).length === 2,
  'json-rpc': (body: any) => body.jsonrpc === '2.0' && 'id' in body && typeof body.error?.code === 'number' && typeof body.error?.message === 'string',
  graphql: (body: any) => Array.isArray(body.errors) && typeof body.errors[0]?.message === 'string' && typeof body.errors[0]?.extensions?.code === 'string',
} as const;

const protocolSurfaces: { path: string; method: string; shape: keyof typeof protocolShapes }[] = [
  { path: '/oauth/token', method: 'POST', shape: 'oauth' },
  { path: '/oauth/register', method: 'POST', shape: 'oauth' },
  { path: '/mcp', method: 'POST', shape: 'json-rpc' },
  { path: '/a2a', method: 'POST', shape: 'json-rpc' },
  { path: '/api/graphql', method: 'POST', shape: 'graphql' },
  { path: '/api/graphql', method: 'GET', shape: 'graphql' },
];

for (const { path, method, shape } of protocolSurfaces) {
  test(`${method} ${path}: errors the framework and the HTTP parser meet come in the ${shape} shape`, async () => {
    const big = 'x'.repeat(20 * 1024);
    const cases: [string, { statusCode: number; headers: Record<string, unknown>; body: string }, number][] = [
      ['headers too large', await raw(`${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: ${big}\r\n\r\n`), 431],
      ['an unknown method', await raw(`FROB ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`), 400],
      ['a malformed percent escape', await t.app.inject({ method: method as 'GET', url: `${path}/%ff`, headers: auth() }), 400],
      ['a path no route answers', await t.app.inject({ method: method as 'GET', url: `${path}/no-such-thing`, headers: auth() }), 404],
    ];
    for (const [what, res, status] of cases) {
      assert.equal(res.statusCode, status, `${what}: ${res.body}`);
      assert.match(String(res.headers['content-type']), /^application\/json/, what);
      assert.ok(protocolShapes[shape](JSON.parse(res.body)), `${what}: ${res.body}`);
      assert.doesNotMatch(res.body, /FST_|statusCode|"detail"/, what);
    }
  });
}
