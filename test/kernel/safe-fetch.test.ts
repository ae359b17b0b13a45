// The SSRF guard (kernel/safe-fetch.ts) against local servers: what it refuses before any
// connection (schemes, private and special addresses, names resolving to loopback), what it
// refuses on the way (redirects to such addresses, too many redirects, large or slow answers),
// and that an allowed exchange comes back whole.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { isAddressAllowed, SafeFetchError, safeFetch } from '../../src/kernel/safe-fetch.ts';

let server: http.Server;
let base: string;
const seen: { method: string; url: string; body: string; auth: string | undefined }[] = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', body, auth: req.headers.authorization });
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/ok') {
        res.writeHead(200, { 'content-type': 'application/json', 'x-echo': 'yes' });
        return res.end(JSON.stringify({ method: req.method, body }));
      }
      if (u.pathname === '/redirect') {
        res.writeHead(Number(u.searchParams.get('status') ?? 302), { location: u.searchParams.get('to') ?? '/ok' });
        return res.end();
      }
      if (u.pathname === '/loop') {
        res.writeHead(302, { location: '/loop' });
        return res.end();
      }
      if (u.pathname === '/big') {
        res.writeHead(200, { 'content-length': '5000' });
        return res.end('x'.repeat(5000));
      }
      if (u.pathname === '/big-chunked') {
        res.writeHead(200);
        res.write('y'.repeat(3000));
        return res.end('y'.repeat(3000));
      }
      if (u.pathname === '/slow') {
        res.writeHead(200);
        res.write('partial');
        return; // never ends: the deadline must cut it off
      }
      res.writeHead(404);
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const opts = { maxBytes: 1024, timeoutMs: 5000, maxRedirects: 3 };
const local = { ...opts, allowLoopback: true };

async function refused(promise: Promise<unknown>, code: SafeFetchError['code']) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof SafeFetchError, `expected a SafeFetchError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    return true;
  });
}

test('special addresses are refused and public unicast ones allowed', () => {
  for (const a of [
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '[::ffff:169.254.169.254]',
    '64:ff9b::a00:1',
    '2002:a00:1::1',
    'not-an-ip',
  ]) {
    assert.equal(isAddressAllowed(a), false, a);
  }
  for (const a of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8']) assert.equal(isAddressAllowed(a), true, a);
  assert.equal(isAddressAllowed('127.0.0.1', true), true);
  assert.equal(isAddressAllowed('::1', true), true);
  assert.equal(isAddressAllowed('10.0.0.1', true), false, 'private ranges stay refused with allowLoopback');
});

test('without allowLoopback: http, loopback literals and names resolving to loopback are refused before connecting', async () => {
  const before = seen.length;
  await refused(safeFetch(`${base}/ok`, opts), 'scheme_not_allowed');
  await refused(safeFetch('ftp://example.com/x', opts), 'scheme_not_allowed');
  await refused(safeFetch('not a url', opts), 'invalid_url');
  await refused(safeFetch('https://user:pw@example.com/', opts), 'invalid_url');
  await refused(safeFetch('https://127.0.0.1/', opts), 'address_not_allowed');
  await refused(safeFetch('https://[::1]/', opts), 'address_not_allowed');
  await refused(safeFetch('https://[::ffff:7f00:1]/', opts), 'address_not_allowed');
  await refused(safeFetch('https://169.254.169.254/latest/meta-data/', opts), 'address_not_allowed');
  await refused(safeFetch('https://10.0.0.1/', opts), 'address_not_allowed');
  await refused(safeFetch('https://0x7f000001/', opts), 'address_not_allowed');
  // A name is resolved by the guard itself and every address checked.
  await refused(safeFetch(`https://localhost:${new URL(base).port}/ok`, opts), 'address_not_allowed');
  assert.equal(seen.length, before, 'no request reached the server');
});

test('with allowLoopback a local exchange comes back whole: status, headers, body, method and final URL', async () => {
  const res = await safeFetch(`${base}/ok`, { ...local, method: 'POST', headers: { 'content-type': 'text/plain' }, body: 'hello' });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('x-echo'), 'yes');
  assert.deepEqual(JSON.parse(res.body), { method: 'POST', body: 'hello' });
  assert.equal(res.url, `${base}/ok`);
  const byName = await safeFetch(`http://localhost:${new URL(base).port}/ok`, local);
  assert.equal(byName.status, 200);
});

test('redirects are followed a bounded number of times and each target is checked again', async () => {
  const followed = await safeFetch(`${base}/redirect?to=/ok`, local);
  assert.equal(followed.status, 200);
  assert.equal(followed.url, `${base}/ok`);
  // 303 turns POST into GET without the body; 307 keeps both.
  assert.equal(JSON.parse((await safeFetch(`${base}/redirect?status=303`, { ...local, method: 'POST', body: 'b' })).body).method, 'GET');
  assert.deepEqual(JSON.parse((await safeFetch(`${base}/redirect?status=307`, { ...local, method: 'POST', body: 'b' })).body), { method: 'POST', body: 'b' });
  await refused(safeFetch(`${base}/loop`, local), 'too_many_redirects');
  await refused(safeFetch(`${base}/redirect`, { ...local, maxRedirects: 0 }), 'too_many_redirects');
  // A redirect to a private or metadata address is refused even where loopback is allowed.
  await refused(safeFetch(`${base}/redirect?to=${encodeURIComponent('http://169.254.169.254/latest/meta-data/')}`, local), 'address_not_allowed');
  await refused(safeFetch(`${base}/redirect?to=${encodeURIComponent('http://10.0.0.7/')}`, local), 'address_not_allowed');
  await refused(safeFetch(`${base}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`, local), 'scheme_not_allowed');
});

test('credentials are not carried to another origin on a redirect', async () => {
  const port = new URL(base).port;
  const n = seen.length;
  await safeFetch(`${base}/redirect?to=${encodeURIComponent(`http://localhost:${port}/ok`)}`, { ...local, headers: { authorization: 'Bearer secret' } });
  assert.equal(seen[n]!.auth, 'Bearer secret');
  assert.equal(seen[n + 1]!.auth, undefined);
});

test('answers larger than maxBytes, declared or streamed, and answers past the deadline fail', async () => {
  await refused(safeFetch(`${base}/big`, local), 'too_large');
  await refused(safeFetch(`${base}/big-chunked`, { ...local, maxBytes: 4000 }), 'too_large');
  assert.equal((await safeFetch(`${base}/big`, { ...local, maxBytes: 5000 })).body.length, 5000);
  await refused(safeFetch(`${base}/slow`, { ...local, timeoutMs: 300 }), 'timeout');
});

test('an unreachable or unresolvable host is a connection or DNS failure, not a crash', async () => {
  const closed = http.createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((r) => closed.close(() => r()));
  await refused(safeFetch(`http://127.0.0.1:${port}/`, local), 'connection_failed');
  await refused(safeFetch('https://no-such-host.invalid/', opts), 'dns_failed');
});
