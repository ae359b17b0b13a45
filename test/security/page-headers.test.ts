// One set of security headers on every HTML answer: every GET route of the route inventory is
// requested, signed out and signed in as a team owner, as a browser asks (Accept: text/html), and
// every HTML answer — page, error page, not-found page — carries Referrer-Policy: no-referrer,
// X-Content-Type-Options: nosniff, X-Frame-Options: DENY, a Content-Security-Policy with
// frame-ancestors 'none', and Strict-Transport-Security since BASE_URL is https (issue 17: /docs
// and /wards lacked Referrer-Policy; no page had HSTS).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import Fastify from 'fastify';
import { useSecurityHeaders } from '../../src/surfaces/http/security-headers.ts';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { mountedRoutes } from '../helpers/routes.ts';
import { seedPublicData } from '../helpers/seed.ts';
import { browserWith, type DashboardTeam, dashboardTeam } from '../surfaces/dashboard/helpers.ts';
import type { Browser, Page } from '../surfaces/web/browser.ts';

let t: TestContext;
let team: DashboardTeam;

before(async () => {
  t = await startTestContext({ env: { BASE_URL: 'https://council.test' } });
  await seedPublicData(t.ctx.db);
  team = await dashboardTeam(t);
});
after(async () => {
  await t?.close();
});

/** Streams stay open: the dashboard's Server-Sent Events are no HTML answer and would never end. */
const streaming = (url: string) => url.endsWith('/events');

function fill(url: string): string {
  return url.replace(/:(\w+)/g, (_m, name: string) => {
    if (name === 'teamId') return team.id;
    if (name === 'n') return '1';
    return `nothing-${name}`;
  });
}

function assertHeaders(page: Page, what: string): void {
  const h = page.headers;
  assert.equal(h['referrer-policy'], 'no-referrer', what);
  assert.equal(h['x-content-type-options'], 'nosniff', what);
  assert.equal(h['x-frame-options'], 'DENY', what);
  const csp = String(h['content-security-policy'] ?? '');
  assert.match(csp, /(^|;\s*)frame-ancestors 'none'(;|$)/, `${what}: CSP ${csp}`);
  assert.match(csp, /(^|;\s*)default-src 'none'(;|$)/, `${what}: CSP ${csp}`);
  assert.match(String(h['strict-transport-security'] ?? ''), /^max-age=\d{7,}/, what);
}

test('every HTML answer of every GET route carries the one set of security headers', async () => {
  const routes = (await mountedRoutes(t.ctx)).filter((r) => r.method === 'GET' && !streaming(r.url));
  const viewers: [string, Browser | null][] = [
    ['signed out', null],
    ['owner', browserWith(t, team.sessions.owner)],
  ];
  const html = new Set<string>();
  for (const route of routes) {
    const url = fill(route.url);
    for (const [who, browser] of viewers) {
      const headers = { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8', host: 'localhost' };
      const page = browser ? await browser.get(url, headers) : await getAnonymous(url, headers);
      if (!String(page.headers['content-type'] ?? '').startsWith('text/html')) continue;
      assertHeaders(page, `${route.url} (${who}, ${page.status})`);
      html.add(route.url);
    }
  }
  // The inventory reached the pages of every surface that makes HTML, the two the issue named among them.
  for (const url of [
    '/',
    '/docs',
    '/wards',
    '/wards/:n',
    '/matters',
    '/signin',
    '/account',
    '/dashboard/:teamId/legislation',
    '/dashboard/:teamId/analytics',
    '/dashboard/:teamId/settings/members',
    '/oauth/authorize',
    '/dev/mailbox',
  ]) {
    assert.ok(html.has(url), `${url} answered HTML`);
  }
  // Unknown paths and API paths asked for HTML: the not-found page carries them too.
  for (const url of ['/no-such-page', '/wards/999']) {
    const page = await getAnonymous(url, { accept: 'text/html' });
    assert.match(String(page.headers['content-type']), /^text\/html/, url);
    assertHeaders(page, url);
  }
});

async function getAnonymous(url: string, headers: Record<string, string>): Promise<Page> {
  const res = await t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, body: res.body, headers: res.headers, setCookies: [], location: res.headers.location as string | undefined };
}

test('over http no Strict-Transport-Security; a page without its own policy gets the strict one', async () => {
  const app = Fastify();
  useSecurityHeaders(app, { baseUrl: 'http://council.test' });
  app.get('/page', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<p>hi</p>'));
  app.get('/data', async () => ({ ok: true }));
  const page = await app.inject({ method: 'GET', url: '/page' });
  assert.equal(page.headers['strict-transport-security'], undefined);
  assert.equal(page.headers['referrer-policy'], 'no-referrer');
  assert.match(String(page.headers['content-security-policy']), /^default-src 'none';.*frame-ancestors 'none'/);
  const data = await app.inject({ method: 'GET', url: '/data' });
  assert.equal(data.headers['referrer-policy'], undefined, 'JSON answers are not pages');
  await app.close();
});
