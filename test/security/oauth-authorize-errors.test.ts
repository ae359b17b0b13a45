// Every error class of the authorization endpoint, generated: whatever is wrong with the request,
// GET (signed out or in) and the consent POST (Approve or Deny) answer the service's own 400 page
// naming the OAuth error, and never a redirect to the redirect_uri — which any self-registered
// client can point at a phishing page (RFC 9700 §4.11.2: no open redirector). Only the person's own
// decision on a valid request sends the browser to the client (issue 17).
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../helpers/context.ts';
import { type Browser, csrfOf, signInViaOutbox } from '../surfaces/web/browser.ts';

const PHISH = 'https://phish.example/login';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

let t: TestContext;
let browser: Browser;
let clientId: string;

before(async () => {
  t = await startTestContext();
  // The attacker's own client: self-registration lets anyone name any https redirect URI.
  clientId = (await t.ctx.services.oauth.clients.register({ redirect_uris: [PHISH], client_name: 'Totally Legit' }, '198.51.100.66')).client_id;
  browser = await signInViaOutbox(t.app, () => t.ctx.services.mailer.outbox(), 'authorize-errors@example.org');
});
after(async () => {
  await t?.close();
});

const valid = (): Record<string, string | string[]> => ({
  response_type: 'code',
  client_id: clientId,
  redirect_uri: PHISH,
  code_challenge: CHALLENGE,
  code_challenge_method: 'S256',
  state: 'st',
});

/** Each error class of RFC 6749 §4.1.2.1 / OAuth 2.1 §4.1.2.1 the endpoint can meet, and its code. */
const errorClasses: [string, (p: Record<string, string | string[]>) => void, string][] = [
  ['client_id missing', (p) => delete p.client_id, 'invalid_client'],
  ['client_id unknown', (p) => (p.client_id = 'ctc_unknown'), 'invalid_client'],
  ['client_id sent twice', (p) => (p.client_id = [clientId, clientId]), 'invalid_request'],
  ['client_id a metadata document that cannot be fetched', (p) => (p.client_id = 'https://127.0.0.1:9/client.json'), 'invalid_client'],
  ['redirect_uri missing', (p) => delete p.redirect_uri, 'invalid_request'],
  ['redirect_uri not registered', (p) => (p.redirect_uri = 'https://phish.example/other'), 'invalid_request'],
  ['response_type other', (p) => (p.response_type = 'x'), 'unsupported_response_type'],
  ['response_type token', (p) => (p.response_type = 'token'), 'unsupported_response_type'],
  ['response_type missing', (p) => delete p.response_type, 'unsupported_response_type'],
  ['code_challenge missing', (p) => delete p.code_challenge, 'invalid_request'],
  ['code_challenge malformed', (p) => (p.code_challenge = 'short'), 'invalid_request'],
  ['code_challenge_method plain', (p) => (p.code_challenge_method = 'plain'), 'invalid_request'],
  ['code_challenge_method missing', (p) => delete p.code_challenge_method, 'invalid_request'],
  ['scope unknown', (p) => (p.scope = 'public.read admin.everything'), 'invalid_scope'],
  ['scope sent twice', (p) => (p.scope = ['public.read', 'public.ai']), 'invalid_request'],
  ['resource unknown', (p) => (p.resource = 'https://elsewhere.example/api'), 'invalid_target'],
  ['resource a path of no surface', (p) => (p.resource = 'http://council.test/api/v1'), 'invalid_target'],
  ['resource sent twice', (p) => (p.resource = ['http://council.test/api', 'http://council.test/mcp']), 'invalid_request'],
  ['state sent twice', (p) => (p.state = ['a', 'b']), 'invalid_request'],
];

function query(params: Record<string, string | string[]>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) for (const one of [v].flat()) q.append(k, one);
  return `/oauth/authorize?${q}`;
}

const codes = async () => (await t.ctx.db.selectFrom('oauth_codes').select('hash').execute()).length;

function assertShown(res: { status: number; location: string | undefined; headers: Record<string, unknown>; body: string }, what: string, code: string) {
  assert.equal(res.status, 400, `${what}: ${res.status} → ${res.location ?? res.body.slice(0, 200)}`);
  assert.equal(res.location, undefined, `${what}: redirected`);
  assert.match(String(res.headers['content-type']), /^text\/html/, what);
  assert.ok(res.body.includes(`OAuth error ${code}`), `${what}: the page names ${code}`);
}

test('every error class is shown on the service page, signed out or in, on GET and on the consent POST; nothing is redirected or stored', async () => {
  const csrf = csrfOf((await browser.get('/account')).body);
  for (const [what, spoil, code] of errorClasses) {
    const params = valid();
    spoil(params);
    const anonymous = await t.app.inject({ method: 'GET', url: query(params) });
    assertShown(
      { status: anonymous.statusCode, location: anonymous.headers.location as string | undefined, headers: anonymous.headers, body: anonymous.body },
      `${what}, signed out`,
      code,
    );
    assertShown(await browser.get(query(params)), `${what}, signed in`, code);
    for (const decision of ['approve', 'deny']) {
      assertShown(await browser.post('/oauth/authorize', { ...params, _csrf: csrf, decision }), `${what}, POST ${decision}`, code);
    }
  }
  assert.equal(await codes(), 0);
});

test('a valid request: signed out goes to the service sign-in; the client hears back only after Deny or Approve', async () => {
  const anonymous = await t.app.inject({ method: 'GET', url: query(valid()) });
  assert.equal(anonymous.statusCode, 303);
  assert.equal(anonymous.headers.location, '/signin');
  const consent = await browser.get(query(valid()));
  assert.equal(consent.status, 200);
  const csrf = csrfOf(consent.body);
  const denied = await browser.post('/oauth/authorize', { ...valid(), _csrf: csrf, decision: 'deny' });
  assert.equal(denied.status, 303);
  const back = new URL(denied.location!);
  assert.equal(`${back.origin}${back.pathname}`, PHISH);
  assert.deepEqual(
    [back.searchParams.get('error'), back.searchParams.get('state'), back.searchParams.get('iss')],
    ['access_denied', 'st', 'http://council.test'],
  );
  const approved = await browser.post('/oauth/authorize', { ...valid(), _csrf: csrf, decision: 'approve', owner: 'personal' });
  assert.equal(approved.status, 303);
  assert.match(new URL(approved.location!).searchParams.get('code') ?? '', /^[A-Za-z0-9]{43}$/);
  assert.equal(await codes(), 1);
});
