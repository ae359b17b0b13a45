// Team grants and live power: the consent offers Personal and the teams where the person may make
// team keys, each with what it can hold; a team grant answers org_id, loses what the person's role
// loses on the next request, and ends when they leave the team. Connected apps are listed and
// disconnected on the account page and under the team's Settings → API keys.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../../src/kernel/actor.ts';
import type { Browser } from '../web/browser.ts';
import { csrfOf } from '../web/browser.ts';
import { authorize, callWith, exchange, type OAuthTest, refresh, registerClient, startOAuthTest } from './helpers.ts';

let o: OAuthTest;
let teamId: string;
const ids: Record<string, string> = {};
const browsers: Record<string, Browser> = {};
const asked = 'public.read me.follows.read team.notes.read team.follows.write';

before(async () => {
  o = await startOAuthTest();
  const { accounts } = o.t.ctx.services;
  for (const who of ['owner', 'admin', 'member']) ids[who] = (await accounts.create({ email: `${who}@example.org` })).id;
  teamId = (await accounts.teams.create(operator, { name: 'Ward Watchers', ownerAccountId: ids.owner!, features: ['team_data'] })).id;
  await accounts.members.add(operator, { teamId, accountId: ids.admin!, role: 'admin' });
  await accounts.members.add(operator, { teamId, accountId: ids.member!, role: 'member' });
  for (const who of ['owner', 'admin', 'member']) browsers[who] = await o.signIn(`${who}@example.org`);
});
after(async () => {
  await o?.close();
});

function consentUrl(clientId: string, redirectUri: string, scope: string): string {
  const q = new URLSearchParams({
    response_type: 'code',
    client_id: clientId,
    redirect_uri: redirectUri,
    code_challenge: 'x'.repeat(43),
    code_challenge_method: 'S256',
    scope,
  });
  return `/oauth/authorize?${q}`;
}

test('the consent page names the app, its redirect host and every scope, and offers only owners that can grant something', async () => {
  const client = await registerClient(o, { client_name: 'Clerk Bot', redirect_uris: ['https://agent.example.net/cb'] });
  const admin = await browsers.admin!.get(consentUrl(client.client_id, 'https://agent.example.net/cb', asked));
  assert.equal(admin.status, 200);
  assert.match(admin.body, /Clerk Bot/);
  assert.match(admin.body, /agent\.example\.net/);
  for (const s of asked.split(' ')) assert.match(admin.body, new RegExp(`<code>${s.replace('.', '\\.')}</code>`));
  assert.match(admin.body, /value="personal"/);
  assert.match(admin.body, new RegExp(`value="${teamId}"`));
  // A plain member may not make team keys: the team is not offered to them.
  const member = await browsers.member!.get(consentUrl(client.client_id, 'https://agent.example.net/cb', asked));
  assert.equal(member.status, 200);
  assert.match(member.body, /value="personal"/);
  assert.doesNotMatch(member.body, new RegExp(`value="${teamId}"`));
  // Choosing the team anyway is refused, and no code is made.
  const forged = await browsers.member!.post('/oauth/authorize', {
    _csrf: csrfOf(member.body),
    response_type: 'code',
    client_id: client.client_id,
    redirect_uri: 'https://agent.example.net/cb',
    code_challenge: 'x'.repeat(43),
    code_challenge_method: 'S256',
    scope: asked,
    owner: teamId,
    decision: 'approve',
  });
  assert.equal(forged.status, 400);
  assert.equal((await o.t.ctx.db.selectFrom('oauth_codes').select('hash').where('client_id', '=', client.client_id).execute()).length, 0);
});

test('a personal grant keeps only personal scopes; a team grant only team ones, with org_id', async () => {
  const client = await registerClient(o);
  const personal = await exchange(o, client, await authorize(o, browsers.admin!, client, { scope: asked, owner: 'personal' }));
  assert.equal(personal.scope, 'public.read me.follows.read');
  assert.equal(personal.org_id, undefined);
  const team = await exchange(o, client, await authorize(o, browsers.admin!, client, { scope: asked, owner: teamId }));
  assert.equal(team.scope, 'public.read team.notes.read team.follows.write');
  assert.equal(team.org_id, teamId);
  const me = await callWith(o, '/api/v2/me', team.access_token);
  assert.equal(me.body.team.id, teamId);
  assert.equal(me.body.credential.type, 'oauth');
  // The refresh keeps the team (org_id derived from the grant, not from the client).
  const again = await refresh(o, client, team.refresh_token!);
  assert.equal(again.org_id, teamId);
});

test("live power: a demoted admin's team grant loses team.follows.write on the next request; leaving the team revokes it", async () => {
  const client = await registerClient(o);
  const tokens = await exchange(o, client, await authorize(o, browsers.admin!, client, { scope: asked, owner: teamId }));
  const before = await callWith(o, '/api/v2/me', tokens.access_token);
  assert.ok(before.body.scopes.includes('team.follows.write'));
  const { accounts } = o.t.ctx.services;
  await accounts.members.setRole(operator, { teamId, accountId: ids.admin!, role: 'member' });
  const after = await callWith(o, '/api/v2/me', tokens.access_token);
  assert.equal(after.status, 200);
  assert.ok(!after.body.scopes.includes('team.follows.write'));
  assert.ok(after.body.scopes.includes('team.notes.read'));
  await accounts.members.remove(operator, { teamId, accountId: ids.admin! });
  assert.equal((await callWith(o, '/api/v2/me', tokens.access_token)).status, 401);
  await assert.rejects(refresh(o, client, tokens.refresh_token!), (err: any) => err.error === 'invalid_grant');
  await accounts.members.add(operator, { teamId, accountId: ids.admin!, role: 'admin' });
});

test('connected apps: listed on the account page and the team page, and disconnected there', async () => {
  const client = await registerClient(o, { client_name: 'Listing Agent' });
  const personal = await exchange(o, client, await authorize(o, browsers.owner!, client, { owner: 'personal' }));
  const team = await exchange(o, client, await authorize(o, browsers.owner!, client, { scope: 'public.read team.notes.read', owner: teamId }));
  const account = await browsers.owner!.get('/account');
  assert.match(account.body, /Connected apps/);
  assert.match(account.body, /Listing Agent/);
  const grantIds = [...account.body.matchAll(/action="\/account\/keys\/apps\/(grt_[^/]+)\/disconnect"/g)].map((m) => m[1]!);
  assert.equal(grantIds.length, 2);
  const teamPage = await browsers.owner!.get(`/dashboard/${teamId}/settings/api-keys`);
  const teamGrant = /action="\/dashboard\/[^/]+\/settings\/api-keys\/apps\/(grt_[^/]+)\/disconnect"/.exec(teamPage.body)![1]!;
  // Another person cannot disconnect it: the grant does not exist for them.
  const memberPage = await browsers.member!.get('/account');
  const refused = await browsers.member!.post(`/account/keys/apps/${teamGrant}/disconnect`, { _csrf: csrfOf(memberPage.body) });
  assert.equal(refused.status, 404);
  assert.equal((await callWith(o, '/api/v2/me', team.access_token)).status, 200);
  const done = await browsers.owner!.post(`/dashboard/${teamId}/settings/api-keys/apps/${teamGrant}/disconnect`, { _csrf: csrfOf(teamPage.body) });
  assert.equal(done.status, 303);
  assert.equal((await callWith(o, '/api/v2/me', team.access_token)).status, 401);
  assert.equal((await callWith(o, '/api/v2/me', personal.access_token)).status, 200);
  const personalGrant = grantIds.find((id) => id !== teamGrant)!;
  const fresh = await browsers.owner!.get('/account');
  assert.equal((await browsers.owner!.post(`/account/keys/apps/${personalGrant}/disconnect`, { _csrf: csrfOf(fresh.body) })).status, 303);
  assert.equal((await callWith(o, '/api/v2/me', personal.access_token)).status, 401);
  assert.doesNotMatch((await browsers.owner!.get('/account')).body, /Listing Agent/);
});
