// Acting where one reads, without a browser: the abilities a public record page's script asks for
// (no-store, per session and team, from the catalogue's access), the no-JavaScript way in
// (/act/{type}/{ref} → sign in → the team's view of the record) and that view's forms, and the
// person's own follows page. The public page itself stays one answer for everyone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Browser, csrfOf } from '../web/browser.ts';
import { api, startWorld, type World } from '../v2/team-helpers.ts';
import { browserWith, type DashboardTeam, dashboardTeam } from './helpers.ts';

let w: World;
let team: DashboardTeam;
let record: string;
let alder: string;

before(async () => {
  w = await startWorld();
  team = await dashboardTeam(w.t);
  record = w.seeded.rollCalls[0]!.recordNumber;
  alder = w.seeded.alders[0]!.id;
});
after(async () => {
  await w.t.close();
});

const abilities = (b: Browser, type: string, ref: string) => b.get(`/act/${type}/${encodeURIComponent(ref)}/abilities`);

test('the abilities of a record: nothing for a visitor, per-role for members, never stored', async () => {
  const anonymous = await abilities(new Browser(w.t.app), 'matter', record);
  assert.equal(anonymous.status, 200);
  assert.equal(anonymous.headers['cache-control'], 'no-store');
  assert.deepEqual(JSON.parse(anonymous.body).signedIn, false);

  const owner = JSON.parse((await abilities(browserWith(w.t, team.sessions.owner), 'matter', record.toLowerCase())).body);
  assert.equal(owner.record.ref, record, 'the record number as the source spells it');
  const ownTeam = owner.teams.find((x: any) => x.id === team.id);
  assert.deepEqual(ownTeam.may, { follow: true, stance: true, note: true, targets: true, contacted: true });
  assert.equal(ownTeam.view, `/dashboard/${team.id}/records/matter/${record}`);
  assert.ok(owner.alderpersons.length > 0, 'alderpersons to add to the target list');
  assert.equal(typeof owner.csrfToken, 'string');

  const member = JSON.parse((await abilities(browserWith(w.t, team.sessions.member), 'matter', record)).body);
  assert.deepEqual(member.teams.find((x: any) => x.id === team.id).may, { follow: false, stance: false, note: true, targets: false, contacted: false });
  const outsider = JSON.parse((await abilities(browserWith(w.t, team.sessions.outsider), 'matter', record)).body);
  assert.deepEqual(outsider.teams, [], 'another team’s things are not shown');
  assert.equal(outsider.personal.may.follow, true);

  const meeting = JSON.parse((await abilities(browserWith(w.t, team.sessions.owner), 'meeting', w.seeded.meetings[0]!.id)).body);
  assert.equal(meeting.teams.find((x: any) => x.id === team.id).may.follow, false, 'a meeting is not followed');
  assert.equal((await abilities(browserWith(w.t, team.sessions.owner), 'ward', '1')).status, 400);
  assert.equal((await abilities(browserWith(w.t, team.sessions.owner), 'matter', 'O1999-0000000')).status, 404);
});

test('the script’s forms are v2 writes with the session: a member’s stance is refused, an owner’s is done', async () => {
  const csrf = JSON.parse((await abilities(browserWith(w.t, team.sessions.member), 'matter', record)).body).csrfToken;
  const put = (session: string, token: string) =>
    w.t.app.inject({
      method: 'PUT',
      url: `/api/v2/team/legislation/${record}/stance`,
      headers: { cookie: `ct_session=${session}`, 'x-csrf-token': token, 'x-team-id': team.id, 'content-type': 'application/json' },
      payload: { stance: 'supports' },
    });
  assert.equal((await put(team.sessions.member, csrf)).statusCode, 403);
  const ownerCsrf = JSON.parse((await abilities(browserWith(w.t, team.sessions.owner), 'matter', record)).body).csrfToken;
  assert.equal((await put(team.sessions.owner, 'wrong')).statusCode, 403, 'without the session’s CSRF token');
  assert.equal((await put(team.sessions.owner, ownerCsrf)).statusCode, 200);
  const after = JSON.parse((await abilities(browserWith(w.t, team.sessions.member), 'matter', record)).body);
  assert.equal(after.teams.find((x: any) => x.id === team.id).stance, 'supports');
});

test('without JavaScript: /act signs in first, then opens the team’s view, whose forms do the work', async () => {
  const away = await new Browser(w.t.app).get(`/act/matter/${record}`);
  assert.equal(away.status, 303);
  assert.equal(away.location, '/signin');
  assert.match(away.setCookies.join('\n'), new RegExp(`ct_return=/act/matter/${record};`), 'sign-in comes back here');

  const b = browserWith(w.t, team.sessions.admin);
  const go = await b.get(`/act/matter/${record}`);
  assert.equal(go.status, 303);
  const view = go.location!;
  assert.equal(view, `/dashboard/${team.id}/records/matter/${record}`);
  assert.equal((await b.submit(view, `${view}/follow`, {})).status, 303);
  assert.equal((await b.submit(view, `${view}/stance`, { stance: 'opposes' })).status, 303);
  assert.equal((await b.submit(view, `${view}/targets`, { personId: alder })).status, 303);
  assert.equal((await b.submit(view, `${view}/targets/${encodeURIComponent(alder)}/contacted`, {})).status, 303);
  assert.equal((await b.submit(view, `${view}/notes`, { body: 'Ask the chair about the hearing date.' })).status, 303);
  const page = await b.get(view);
  assert.match(page.body, /The team follows this\./);
  assert.match(page.body, /data-stance="opposes"/);
  assert.match(page.body, new RegExp(`<tr data-person="${alder}">[\\s\\S]*?Contacted`));
  assert.match(page.body, /<article class="note"><p>Ask the chair about the hearing date\.<\/p>/);
  const targets = (await api(w.t)(team.keys.owner, 'GET', `/team/legislation/${record}/targets`)).json();
  assert.deepEqual(targets.contacted, [alder]);

  // The note shows on the team's view of that bill only.
  const other = `/dashboard/${team.id}/records/matter/${w.seeded.rollCalls[1]!.recordNumber}`;
  assert.doesNotMatch((await b.get(other)).body, /hearing date/);
  // A member may not change the stance: the view says so with the refusal's status.
  const m = browserWith(w.t, team.sessions.member);
  const refused = await m.post(`${view}/stance`, { _csrf: csrfOf((await m.get(view)).body), stance: 'supports' });
  assert.equal(refused.status, 403);
  assert.equal((await browserWith(w.t, team.sessions.outsider).get(view)).status, 404);
  assert.equal((await b.post(`${view}/stance`, { stance: 'supports' })).status, 403, 'no CSRF token');
});

test('/account/follows: follow, set alerts, unfollow — the person’s own, as on v2', async () => {
  const b = browserWith(w.t, team.sessions.outsider);
  assert.equal((await b.submit('/account/follows', '/account/follows', { type: 'legislation', refId: record })).status, 303);
  let page = await b.get('/account/follows');
  const id = /id="follow-([^"]+)"/.exec(page.body)![1]!;
  assert.match(page.body, new RegExp(`<a href="/matters/${record}">`));
  assert.equal((await b.submit('/account/follows', `/account/follows/${id}/alerts`, { email: 'daily', webhook: 'on' })).status, 303);
  const alerts = await w.t.app.inject({ method: 'GET', url: `/api/v2/me/follows/${id}/alerts`, headers: { cookie: `ct_session=${team.sessions.outsider}` } });
  assert.equal(alerts.json().email.frequency, 'daily');
  assert.equal(alerts.json().webhook, true);
  assert.equal((await b.submit('/account/follows', `/account/follows/${id}/alerts`, { email: 'hourly' })).status, 400);
  assert.equal((await b.submit('/account/follows', '/account/follows', { type: 'legislation', refId: record })).status, 409, 'twice');
  assert.equal((await b.submit('/account/follows', `/account/follows/${id}/remove`, {})).status, 303);
  page = await b.get('/account/follows');
  assert.match(page.body, /You follow nothing yet/);
});
