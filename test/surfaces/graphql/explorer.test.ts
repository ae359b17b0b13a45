// GraphiQL at /api/graphql for a browser: the page (open, no-store, its own CSP), its files from
// the ruru package (no CDN), and GraphiQL in Chromium loading the schema by introspection, for a
// person who pastes a key and for one signed in (whose session counts on GraphQL only with its
// CSRF token).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { csrfTokenFor } from '../../../src/modules/sessions/index.ts';
import { launchChromium } from '../../helpers/chromium.ts';
import { type Harness, startGraphQL } from './helpers.ts';
import { signIn as signInAs } from '../v2/team-helpers.ts';

let h: Harness;
before(async () => {
  h = await startGraphQL();
});
after(async () => {
  await h.t.close();
});

const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

async function signIn(email: string): Promise<{ token: string; csrfToken: string }> {
  const token = await signInAs(h.t, email);
  return { token, csrfToken: csrfTokenFor(token) };
}

test('a browser opening /api/graphql gets GraphiQL, open and never stored; a client asking JSON gets GraphQL', async () => {
  const res = await fetch(`${h.url}/api/graphql`, { headers: HTML });
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.equal(res.headers.get('cache-control'), 'private, no-store');
  const csp = res.headers.get('content-security-policy') ?? '';
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  assert.ok(nonce, csp);
  assert.match(csp, /script-src 'self' 'nonce-/);
  const page = await res.text();
  // Every script is the service's own: by nonce inline, or a file under /graphiql/assets/.
  for (const tag of page.match(/<script[^>]*>/g) ?? []) assert.ok(tag.includes(`nonce="${nonce}"`), tag);
  assert.ok(!/https?:\/\//.test(page.replace(/https?:\/\/(www\.)?w3\.org[^"]*/g, '')), 'no file from another host');
  for (const asset of ['ruru.js', 'ruru.css', 'graphqlWorker.js', 'editorWorker.js', 'jsonWorker.js']) {
    const file = await fetch(`${h.url}/graphiql/assets/${asset}`);
    assert.equal(file.status, 200, asset);
    assert.match(file.headers.get('content-type') ?? '', asset.endsWith('.css') ? /^text\/css/ : /^text\/javascript/);
    await file.arrayBuffer();
  }
  const etag = (await fetch(`${h.url}/graphiql/assets/ruru.css`)).headers.get('etag')!;
  assert.equal((await fetch(`${h.url}/graphiql/assets/ruru.css`, { headers: { 'if-none-match': etag } })).status, 304);
  assert.equal((await fetch(`${h.url}/graphiql/assets/ruru.js.map`)).status, 404);
  assert.equal((await fetch(`${h.url}/graphiql/assets/..%2Fpackage.json`)).status, 404);
  // A GraphQL client (JSON), a GET with a query, or no Accept at all: the GraphQL endpoint as before.
  assert.equal((await fetch(`${h.url}/api/graphql`, { headers: { accept: 'application/json' } })).status, 401);
  assert.equal((await fetch(`${h.url}/api/graphql?query=%7B__typename%7D`, { headers: HTML })).status, 401);
  assert.equal((await fetch(`${h.url}/api/graphql`)).status, 401);
});

test('a session counts on GraphQL only with its CSRF token: a cookie alone is no credential', async () => {
  const { token, csrfToken } = await signIn('explorer-csrf@example.org');
  const post = (headers: Record<string, string>) =>
    fetch(`${h.url}/api/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `ct_session=${token}`, ...headers },
      body: JSON.stringify({ query: '{ matters(limit: 1) { data { recordNumber } } }' }),
    });
  const bare = await post({});
  assert.equal(bare.status, 401, 'the cookie alone');
  assert.equal((await post({ 'x-csrf-token': 'not-the-token' })).status, 401);
  const ok = await post({ 'x-csrf-token': csrfToken });
  assert.equal(ok.status, 200);
  assert.equal(((await ok.json()) as any).data.matters.data.length, 1);
  // The page of a signed-in person carries their token; a signed-out one's does not.
  const page = await (await fetch(`${h.url}/api/graphql`, { headers: { ...HTML, cookie: `ct_session=${token}` } })).text();
  assert.ok(page.includes(JSON.stringify(csrfToken)));
  assert.ok(!(await (await fetch(`${h.url}/api/graphql`, { headers: HTML })).text()).includes(csrfToken));
});

/**
 * Opens the explorer (or does `action` on it) and waits for GraphiQL's introspection answered with
 * `status`: the types it gave. GraphiQL asks again in a simpler form when it is refused, so a late
 * second refusal of the page before a reload is not taken for the reloaded page's answer.
 */
async function loadSchema(tab: Page, status: number, action?: () => Promise<void>): Promise<{ status: number; types: string[] }> {
  const introspection = tab.waitForResponse(
    (r) => r.url().endsWith('/api/graphql') && r.request().method() === 'POST' && r.status() === status && /__schema/.test(r.request().postData() ?? ''),
  );
  await (action ? action() : tab.goto(`${h.url}/api/graphql`));
  const res = await introspection;
  const body = await res.json();
  return { status: res.status(), types: (body.data?.__schema?.types ?? []).map((t: { name: string }) => t.name) };
}

test('GraphiQL loads the schema in Chromium, with a pasted key and for a signed-in person', async () => {
  const key = await h.key(['public.read']);
  const { token } = await signIn('explorer-browser@example.org');
  const browser = await launchChromium();
  try {
    const context = await browser.newContext();
    const tab = await context.newPage();
    const errors: string[] = [];
    tab.on('pageerror', (e) => errors.push(e.message));
    tab.on('console', (m) => {
      if (m.type() === 'error' && /Content Security Policy|Refused/.test(m.text())) errors.push(m.text());
    });
    // A request cut short by the page's reload (the key field) is aborted, not failed.
    tab.on('requestfailed', (r) => {
      if (r.failure()?.errorText !== 'net::ERR_ABORTED') errors.push(`${r.url()} failed: ${r.failure()?.errorText}`);
    });
    // Signed out, no key: GraphiQL asks and is refused with 401; the person pastes a key.
    const refused = await loadSchema(tab, 401);
    assert.equal(refused.status, 401);
    const withKey = await loadSchema(tab, 200, async () => {
      await tab.fill('#ct-key-input', key);
      await tab.click('#ct-key button');
    });
    assert.equal(withKey.status, 200);
    assert.ok(withKey.types.includes('Matter') && withKey.types.includes('RollCall'), 'the schema loaded');
    // GraphiQL shows it: the documentation explorer lists the root fields.
    await tab.click('button[aria-label="Show Documentation Explorer"]');
    await tab.getByText('Query', { exact: true }).first().click();
    await tab.getByText('matters', { exact: true }).first().waitFor();
    // Signed in (a new tab, no key in it): the session with its CSRF token.
    const signedIn = await browser.newContext();
    await signedIn.addCookies([{ name: 'ct_session', value: token, url: h.url }]);
    const other = await signedIn.newPage();
    other.on('pageerror', (e) => errors.push(e.message));
    const session = await loadSchema(other, 200);
    assert.equal(session.status, 200);
    assert.ok(session.types.includes('Matter'));
    assert.deepEqual(errors, []);
  } finally {
    await browser.close();
  }
});
