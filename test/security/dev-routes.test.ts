// Every /dev/ route of the route inventory answers only a caller on this machine that names this
// service's host (BASE_URL's, or a loopback name): a DNS rebinding page in a developer's browser
// connects from loopback but names the attacker's host, and gets the 404 of a page that does not
// exist (issue 17).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { mountedRoutes } from '../helpers/routes.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext({ env: { NODE_ENV: 'development', BASE_URL: 'http://council.test:8080' } });
});
after(async () => {
  await t?.close();
});

test('every /dev/ route: a foreign Host is a 404 even from loopback; the service host and loopback names are served', async () => {
  const dev = (await mountedRoutes(t.ctx)).filter((r) => r.url.startsWith('/dev/') || r.url === '/dev');
  assert.ok(dev.length >= 2, 'the development mailbox is mounted');
  for (const route of dev) {
    assert.equal(route.method, 'GET', `${route.url}: /dev/ routes only read`);
    const unknown = await t.app.inject({ method: 'GET', url: `${route.url}-nowhere`, remoteAddress: '127.0.0.1', headers: { host: 'localhost' } });
    for (const host of [
      'rebind.example',
      'rebind.example:8080',
      'council.test.rebind.example',
      '127.0.0.1.nip.io:8080',
      'localhost.rebind.example',
      'localhost@rebind.example',
    ]) {
      for (const remoteAddress of ['127.0.0.1', '::1']) {
        const res = await t.app.inject({ method: 'GET', url: route.url, remoteAddress, headers: { host } });
        assert.equal(res.statusCode, 404, `${route.url} with Host ${host} from ${remoteAddress}`);
        assert.equal(res.body, unknown.body.replace(`${route.url}-nowhere`, route.url));
      }
    }
    for (const host of ['council.test:8080', 'council.test', 'localhost', 'localhost:3000', '127.0.0.1:3000', '[::1]:3000', 'LOCALHOST:3000']) {
      const res = await t.app.inject({ method: 'GET', url: route.url, remoteAddress: '127.0.0.1', headers: { host } });
      assert.equal(res.statusCode, 200, `${route.url} with Host ${host}`);
    }
  }
});
