// Fetching a client ID metadata document obeys the one outbound setting, OUTBOUND_ALLOW_LOOPBACK
// (off by default), whatever NODE_ENV says; and whatever went wrong on the way, the refusal says
// only that the document could not be fetched, so a stranger naming URLs learns nothing about
// which hosts and ports answer (issue 17).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { safeFetch } from '../../../src/kernel/safe-fetch.ts';
import { readMetadataDocument } from '../../../src/modules/credentials/oauth/metadata-document.ts';
import { freePort } from '../../helpers/free-port.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';

const FETCH_FAILED = 'The client metadata document could not be fetched.';

let t: TestContext;
let server: Server;
let origin: string;
const hits: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.push(path);
    const send = (status: number, body: string, type = 'application/json') => {
      res.writeHead(status, { 'content-type': type });
      res.end(body);
    };
    if (path === '/client.json') return send(200, JSON.stringify({ client_id: `${origin}${path}`, redirect_uris: ['http://127.0.0.1:7777/cb'] }));
    if (path === '/text.json') return send(200, 'SSH-2.0-OpenSSH_9.6', 'text/plain');
    if (path === '/array.json') return send(200, '[]');
    if (path === '/error.json') return send(500, '{}');
    if (path === '/to-private.json') {
      res.writeHead(302, { location: 'http://10.0.0.7/client.json' });
      return res.end();
    }
    send(404, '{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // The default the issue found open: development, no OUTBOUND_ALLOW_LOOPBACK.
  t = await startTestContext({ env: { NODE_ENV: 'development' } });
});
after(async () => {
  server?.closeAllConnections();
  server?.close();
  await t?.close();
});

const refusal = async (promise: Promise<unknown>): Promise<string> => {
  try {
    await promise;
  } catch (err: any) {
    assert.equal(err.protocolCode, 'invalid_client');
    return err.message;
  }
  assert.fail('expected a refusal');
};

test('in development without OUTBOUND_ALLOW_LOOPBACK, loopback and http documents are refused and never fetched', async () => {
  assert.equal(t.config.outbound.allowLoopback, false);
  const port = new URL(origin).port;
  for (const id of [
    `${origin}/client.json`,
    `https://127.0.0.1:${port}/client.json`,
    `https://localhost:${port}/client.json`,
    `https://[::1]:${port}/client.json`,
  ]) {
    await refusal(t.ctx.services.oauth.clients.resolve(id));
  }
  const res = await t.app.inject({
    method: 'GET',
    url: `/oauth/authorize?${new URLSearchParams({ client_id: `https://127.0.0.1:${port}/client.json`, redirect_uri: 'http://127.0.0.1:7777/cb', response_type: 'code' })}`,
  });
  assert.equal(res.statusCode, 400);
  assert.equal(res.headers.location, undefined);
  assert.deepEqual(hits, [], 'no request reached the local server');
  assert.equal((await t.ctx.db.selectFrom('oauth_clients').select('id').execute()).length, 0);
});

test('every way a fetch can fail reads the same: no port, status or body detail', async () => {
  const closed = await freePort();
  const fetchWith = (id: string) => readMetadataDocument(id, safeFetch, { allowLoopback: true, now: new Date() });
  const messages = new Map<string, string>();
  for (const id of [
    `http://127.0.0.1:${closed}/client.json`,
    `${origin}/missing.json`,
    `${origin}/error.json`,
    `${origin}/text.json`,
    `${origin}/array.json`,
    `${origin}/to-private.json`,
    'https://10.0.0.7/client.json',
    'https://name-that-does-not-resolve.invalid/client.json',
  ]) {
    messages.set(id, await refusal(fetchWith(id)));
  }
  for (const [id, message] of messages) assert.equal(message, FETCH_FAILED, id);
  // With the setting on, the same local document is read.
  assert.equal((await fetchWith(`${origin}/client.json`)).metadata.client_id, `${origin}/client.json`);
});
