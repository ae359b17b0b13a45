// The Legislation page and stances set from the dashboard: members of the team only (others get
// 404), every form carries the CSRF token, a stance set or cleared here goes through the same
// team-data service as v2 and is recorded in the history with source 'dashboard'.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { csrfOf } from '../web/browser.ts';
import { api, startWorld, type World } from '../v2/team-helpers.ts';
import { browserWith, type DashboardTeam, dashboardTeam } from './helpers.ts';

let w: World;
let team: DashboardTeam;
let record: string;
let followed: string;

before(async () => {
  w = await startWorld();
  team = await dashboardTeam(w.t);
  record = w.seeded.rollCalls[0]!.recordNumber;
  followed = w.seeded.matters.find((m) => m.recordNumber !== record)!.recordNumber;
  const res = await api(w.t)(team.keys.owner, 'POST', '/team/follows', { type: 'legislation', refId: followed, label: 'Followed bill' });
  assert.equal(res.statusCode, 201, res.body);
});
after(async () => {
  await w.t.close();
});

const page = (teamId = team.id) => `/dashboard/${teamId}/legislation`;
const stanceOf = async () => api(w.t)(team.keys.owner, 'GET', `/team/legislation/${record}/stance`);
const rowOf = (body: string, rec: string) => {
  const m = new RegExp(`<tr id="bill-${rec}"[\\s\\S]*?</tr>`).exec(body);
  assert.ok(m, `no row for ${rec}`);
  return m[0];
};

describe('access', () => {
  test('signed out: a redirect to sign in', async () => {
    const res = await w.t.app.inject({ method: 'GET', url: page() });
    assert.equal(res.statusCode, 303);
    assert.equal(res.headers.location, '/signin');
  });

  test('someone outside the team gets 404 on every page, form and the event stream', async () => {
    const b = browserWith(w.t, team.sessions.outsider);
    for (const section of ['', '/legislation', '/positions', '/follows', '/notes', '/targets', '/analytics', '/people', '/events']) {
      const res = await b.get(`/dashboard/${team.id}${section}`);
      assert.equal(res.status, 404, `${section}: ${res.status}`);
    }
    const account = await b.get('/account');
    const res = await b.post(`${page()}/${record}/stance`, { _csrf: csrfOf(account.body), stance: 'supports' });
    assert.equal(res.status, 404);
    assert.equal((await stanceOf()).statusCode, 404);
  });

  test('an unknown team is 404 too', async () => {
    const res = await browserWith(w.t, team.sessions.owner).get(page('team_unknown'));
    assert.equal(res.status, 404);
  });
});

describe('the page', () => {
  test('lists followed and positioned bills with status, latest action and stance; pages allow only own scripts', async () => {
    const res = await browserWith(w.t, team.sessions.owner).get(page());
    assert.equal(res.status, 200);
    assert.match(String(res.headers['content-security-policy']), /script-src 'self'/);
    assert.equal(res.headers['cache-control'], 'no-store');
    const row = rowOf(res.body, followed);
    assert.match(row, /Introduced/);
    assert.match(row, /data-stance="none"/);
    assert.match(res.body, /data-events="\/dashboard\/[^"]+\/events"/);
    // Every form carries the CSRF token.
    const forms = res.body.match(/<form method="post"[\s\S]*?<\/form>/g) ?? [];
    assert.ok(forms.length >= 3);
    for (const f of forms) assert.match(f, /name="_csrf" value="[^"]+"/);
  });
});

describe('stances from the dashboard', () => {
  test('set, change and clear write history with source "dashboard" and show on the page', async () => {
    const b = browserWith(w.t, team.sessions.admin);
    const set = await b.submit(page(), `${page()}/stance`, { record, stance: 'supports' });
    assert.equal(set.status, 303);
    assert.equal(set.location, `${page()}#bill-${record}`);
    assert.match(rowOf((await b.get(page())).body, record), /data-stance="supports"/);

    const change = await b.submit(page(), `${page()}/${record}/stance`, { stance: 'opposes' });
    assert.equal(change.status, 303);
    assert.match(rowOf((await b.get(page())).body, record), /data-stance="opposes"/);

    const stance = (await stanceOf()).json();
    assert.equal(stance.stance, 'opposes');
    assert.deepEqual(
      stance.history.map((h: any) => [h.stance, h.previous, h.source, h.by.credential.type, h.by.accountId]),
      [
        ['opposes', 'supports', 'dashboard', 'session', team.admin],
        ['supports', null, 'dashboard', 'session', team.admin],
      ],
    );

    const clear = await b.submit(page(), `${page()}/${record}/stance/clear`, {});
    assert.equal(clear.status, 303);
    assert.equal((await stanceOf()).statusCode, 404);
    assert.match(rowOf((await b.get(page())).body, followed), /data-stance="none"/);
    assert.doesNotMatch((await b.get(page())).body, new RegExp(`id="bill-${record}"`));
    // The clearing is in the history: set the stance again through v2 and read it back.
    const again = await api(w.t)(team.keys.owner, 'PUT', `/team/legislation/${record}/stance`, { stance: 'supports' });
    assert.equal(again.statusCode, 200, again.body);
    const cleared = again.json().history[1];
    assert.deepEqual([cleared.stance, cleared.previous, cleared.source, cleared.by.accountId], [null, 'opposes', 'dashboard', team.admin]);
    assert.equal((await api(w.t)(team.keys.owner, 'DELETE', `/team/legislation/${record}/stance`)).statusCode, 200);
  });

  test('clearing a stance the team does not have says so (404), nothing is written', async () => {
    const b = browserWith(w.t, team.sessions.owner);
    const res = await b.submit(page(), `${page()}/${followed}/stance/clear`, {});
    assert.equal(res.status, 404);
    assert.match(res.body, /has no stance/);
    assert.match(res.body, /id="live"/);
  });

  test('an unknown record number or stance is refused with the reason', async () => {
    const b = browserWith(w.t, team.sessions.owner);
    const unknown = await b.submit(page(), `${page()}/stance`, { record: 'O2099-0000001', stance: 'supports' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /No matter with record number/);
    const bad = await b.submit(page(), `${page()}/${record}/stance`, { stance: 'maybe' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /supports.*opposes/);
  });

  test('a member sees why there are no stance forms, and a forged post is refused', async () => {
    const b = browserWith(w.t, team.sessions.member);
    const view = await b.get(page());
    assert.equal(view.status, 200);
    assert.match(view.body, /Only the team’s owners and admins set or clear its stance/);
    assert.doesNotMatch(view.body, /\/stance"/);
    const res = await b.post(`${page()}/${record}/stance`, { _csrf: csrfOf(view.body), stance: 'supports' });
    assert.equal(res.status, 403);
    assert.match(res.body, /role in this team \(member\)|Only team owner/);
    assert.equal((await stanceOf()).statusCode, 404);
  });

  test('CSRF: a post without the token, with a wrong one, or from another site is refused', async () => {
    const b = browserWith(w.t, team.sessions.owner);
    const missing = await b.post(`${page()}/${record}/stance`, { stance: 'supports' });
    assert.equal(missing.status, 403);
    const wrong = await b.post(`${page()}/${record}/stance`, {
      _csrf: csrfOf((await browserWith(w.t, team.sessions.admin).get(page())).body),
      stance: 'supports',
    });
    assert.equal(wrong.status, 403);
    const token = csrfOf((await b.get(page())).body);
    const crossSite = await b.post(`${page()}/${record}/stance`, { _csrf: token, stance: 'supports' }, { 'sec-fetch-site': 'cross-site' });
    assert.equal(crossSite.status, 403);
    assert.equal((await stanceOf()).statusCode, 404);
  });

  test('a stance set through v2 shows on the page', async () => {
    const res = await api(w.t)(team.keys.owner, 'PUT', `/team/legislation/${record}/stance`, { stance: 'supports' });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(rowOf((await browserWith(w.t, team.sessions.member).get(page())).body, record), /data-stance="supports"/);
  });

  test('a team without the team_data feature sees why instead of an error', async () => {
    const other = await dashboardTeam(w.t, ['people']);
    const res = await browserWith(w.t, other.sessions.owner).get(`/dashboard/${other.id}/legislation`);
    assert.equal(res.status, 200);
    assert.match(res.body, /needs the team feature &quot;team_data&quot;|needs the team feature "team_data"/);
  });
});
