// Client ID metadata documents: a client_id that is a URL names its own metadata, fetched through
// the SSRF guard. Local servers stand in for remote clients (OUTBOUND_ALLOW_LOOPBACK=true allows
// http and loopback only; private and link-local addresses are refused everywhere, and so are
// redirects to them, oversized and slow documents).
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type * as oauth from 'oauth4webapi';
import type { Browser } from '../web/browser.ts';
import { authorize, callWith, exchange, type OAuthTest, startOAuthTest } from './helpers.ts';

let o: OAuthTest;
let browser: Browser;
let server: Server;
let origin: string;
const hits = new Map<string, number>();
const REDIRECT = 'http://127.0.0.1:7777/callback';

function doc(path: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({
    client_id: `${origin}${path}`,
    client_name: 'Document Agent',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
}

before(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    hits.set(path, (hits.get(path) ?? 0) + 1);
    if (path === '/slow.json') return; // never answers
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    if (path === '/cached.json') return send(200, doc(path), { 'cache-control': 'max-age=600' });
    if (path === '/uncached.json') return send(200, doc(path), { 'cache-control': 'no-store' });
    if (path === '/other.json') return send(200, doc('/someone-else.json'));
    if (path === '/secret.json') return send(200, doc(path, { client_secret: 'x' }));
    if (path === '/big.json') return send(200, doc(path, { padding: 'x'.repeat(6000) }));
    if (path === '/chunked-big.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      for (let i = 0; i < 10; i++) res.write('x'.repeat(1000));
      return res.end();
    }
    if (path === '/to-metadata.json') return send(302, '', { location: 'http://169.254.169.254/latest/meta-data/' });
    if (path === '/to-private.json') return send(302, '', { location: 'http://10.0.0.7/client.json' });
    if (path === '/loop.json') return send(302, '', { location: '/loop.json' });
    if (path === '/bad-redirect.json') return send(200, doc(path, { redirect_uris: ['http://agent.example.net/cb'] }));
    send(404, '{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  o = await startOAuthTest({ OUTBOUND_ALLOW_LOOPBACK: 'true' });
  browser = await o.signIn('documents@example.org');
});
after(async () => {
  server?.closeAllConnections();
  server?.close();
  await o?.close();
});

const clientCount = async () => (await o.t.ctx.db.selectFrom('oauth_clients').select('id').execute()).length;

function consentUrl(clientId: string): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  });
  return `/oauth/authorize?${q}`;
}

test('a client ID metadata document: the consent names it, the flow completes with the URL as client_id, and its cache headers are honoured', async () => {
  const client: oauth.Client = { client_id: `${origin}/cached.json`, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
  const a = await authorize(o, browser, client);
  const tokens = await exchange(o, client, a);
  assert.equal((await callWith(o, '/api/v2/me', tokens.access_token)).body.credential.name, 'Document Agent');
  await authorize(o, browser, client);
  assert.equal(hits.get('/cached.json'), 1, 'max-age=600: fetched once');
  const uncached: oauth.Client = { client_id: `${origin}/uncached.json`, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' };
  await authorize(o, browser, uncached);
  await authorize(o, browser, uncached);
  assert.equal(hits.get('/uncached.json'), 4, 'no-store: fetched every time it is needed (the consent page and the decision, twice)');
});

test('documents that name another client, hold a secret, are too large, redirect inside the network, loop or never answer are refused; nothing is registered', async () => {
  const before = await clientCount();
  for (const path of [
    '/other.json',
    '/secret.json',
    '/big.json',
    '/chunked-big.json',
    '/to-metadata.json',
    '/to-private.json',
    '/loop.json',
    '/missing.json',
    '/bad-redirect.json',
    '/slow.json',
  ]) {
    const res = await browser.get(consentUrl(`${origin}${path}`));
    assert.equal(res.status, 400, path);
    assert.equal(res.location, undefined, path);
  }
  assert.equal(hits.get('/loop.json'), 4, 'the first request and three redirects, then no more');
  for (const url of [
    'http://10.0.0.7/client.json',
    'http://169.254.169.254/latest/meta-data/client.json',
    'http://[fd00::1]/client.json',
    `${origin}/`,
    `${origin}/a/../cached.json`,
  ]) {
    const res = await browser.get(consentUrl(url));
    assert.equal(res.status, 400, url);
  }
  assert.equal(await clientCount(), before);
});
