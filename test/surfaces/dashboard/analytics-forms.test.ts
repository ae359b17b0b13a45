// The dashboard's analytics without JavaScript: the starter dashboard a team gets on its first
// visit, one form per chart kind with a picker and a preview, the /pick search page that returns a
// choice to the form, the scorecard page, and no form anywhere asking for an id.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { api, expectOk, startWorld, type World } from '../v2/team-helpers.ts';
import { csrfOf } from '../web/browser.ts';
import { browserWith, type DashboardTeam, dashboardTeam } from './helpers.ts';

let w: World;
let team: DashboardTeam;
let record: string;
const url = (section: string) => `/dashboard/${team.id}/${section}`;

before(async () => {
  w = await startWorld();
  team = await dashboardTeam(w.t);
  record = w.seeded.rollCalls[0]!.recordNumber;
});
after(async () => {
  await w.t.close();
});

test('a team’s first visit to Analytics makes the starter dashboard from its own bills, once', async () => {
  expectOk(await api(w.t)(team.keys.owner, 'PUT', `/team/legislation/${record}/stance`, { stance: 'supports' }));
  const b = browserWith(w.t, team.sessions.member);
  const first = await b.get(url('analytics'));
  assert.equal(first.status, 200);
  assert.match(first.body, /<h2>Our bills<\/h2>/);
  assert.match(first.body, /The team&#39;s bills by status|The team's bills by status/);
  assert.match(first.body, /bills on upcoming agendas/);
  assert.match(first.body, /targets voted on its bills/);
  // The status chart counts the one bill with a stance, with its figures in a table too.
  assert.match(first.body, /<g class="bar" data-label="[^"]+" data-value="1">/);
  assert.match(first.body, /<summary>The figures as a table<\/summary>/);
  await b.get(url('analytics'));
  const list = expectOk(await api(w.t)(team.keys.owner, 'GET', '/team/dashboards'));
  assert.equal(list.data.length, 1, 'a second visit makes no second starter');
});

test('a chart kind’s own form: a bill typed into the picker, previewed, then added', async () => {
  const b = browserWith(w.t, team.sessions.member);
  const list = expectOk(await api(w.t)(team.keys.owner, 'GET', '/team/dashboards'));
  const dash = list.data[0];
  const form = await b.get(`${url('analytics')}/${dash.id}/add/roll_call`);
  assert.equal(form.status, 200);
  assert.match(form.body, /role="combobox"/);
  assert.doesNotMatch(form.body, /name="(personId|bodyId|clientId|committeeId|from|to|period)"/, 'only the roll call’s own fields');
  const preview = await b.get(`${url('analytics')}/${dash.id}/add/roll_call?preview=1&recordNumber-text=${encodeURIComponent(record.toLowerCase())}`);
  assert.equal(preview.status, 200);
  assert.match(preview.body, new RegExp(`Roll call on ${record}`));
  assert.match(preview.body, new RegExp(`<input type="hidden" name="recordNumber" value="${record}">`));
  const added = await b.post(`${url('analytics')}/${dash.id}/widgets`, {
    _csrf: csrfOf(preview.body),
    kind: 'roll_call',
    baseVersion: String(dash.version),
    recordNumber: record,
  });
  assert.equal(added.status, 303);
  const view = await b.get(added.location!);
  assert.match(view.body, new RegExp(`Roll call on ${record}`));
  // Text matching nothing is a 400 that says so, and nothing is added.
  const none = await b.post(`${url('analytics')}/${dash.id}/widgets`, {
    _csrf: csrfOf(preview.body),
    kind: 'roll_call',
    baseVersion: String(dash.version + 1),
    'recordNumber-text': 'zzqx nothing',
  });
  assert.equal(none.status, 400);
  assert.match(none.body, /Nothing in the public record matches/);
});

test('/pick lists matches that return to the form, only to a path on this site; /pick/search answers JSON', async () => {
  const alder = w.seeded.alders[0]!;
  const back = `${url('targets')}?record=${record}`;
  const q = alder.name.split(' ').at(-1)!;
  const page = await w.t.app.inject(`/pick?types=person&field=personId&q=${encodeURIComponent(q)}&return=${encodeURIComponent(back)}`);
  assert.equal(page.statusCode, 200);
  const link = new RegExp(`href="/dashboard/${team.id}/targets\\?record=${record}&amp;personId=${alder.id}&amp;personId-text=`);
  assert.match(page.body, link);
  const evil = await w.t.app.inject(`/pick?types=person&field=personId&q=${encodeURIComponent(q)}&return=${encodeURIComponent('//evil.example/x')}`);
  assert.doesNotMatch(evil.body, /evil\.example/);
  const json = await w.t.app.inject(`/pick/search?types=person&q=${encodeURIComponent(q)}`);
  assert.equal(json.statusCode, 200);
  assert.ok(json.json().data.some((r: any) => r.value === alder.id && r.type === 'person'));
  assert.equal((await w.t.app.inject('/pick/search?types=people&q=x')).statusCode, 400);
  // The form it returns to shows the choice, ready to send.
  const owner = browserWith(w.t, team.sessions.owner);
  const form = await owner.get(`${back}&personId=${alder.id}&personId-text=${encodeURIComponent(alder.name)}`);
  assert.match(form.body, new RegExp(`name="personId" value="${alder.id}"`));
});

test('the scorecard page: people sorted by agreement with the team, each vote cited', async () => {
  const b = browserWith(w.t, team.sessions.member);
  const page = await b.get(url('scorecard'));
  assert.equal(page.status, 200);
  assert.match(page.body, /<table class="scorecard">/);
  assert.match(page.body, new RegExp(`href="/roll-calls/${w.seeded.rollCalls[0]!.id}"`));
  assert.match(page.body, /aria-sort="descending"/);
  const byName = await b.get(`${url('scorecard')}?sort=name`);
  const names = [...byName.body.matchAll(/<tr data-person="[^"]+">\s*<td><a href="\/people\/[^"]+">([^<]+)<\/a>/g)].map((m) => m[1]!);
  assert.ok(names.length > 10);
  assert.deepEqual(
    names,
    [...names].sort((x, y) => x.localeCompare(y)),
  );
  assert.equal((await b.get(`${url('scorecard')}?sort=luck`)).status, 400);
});

test('no dashboard form asks for an id: records are chosen with pickers', async () => {
  const b = browserWith(w.t, team.sessions.owner);
  expectOk(await api(w.t)(team.keys.owner, 'POST', '/team/follows', { type: 'legislation', refId: record }), 201);
  const dash = expectOk(await api(w.t)(team.keys.owner, 'GET', '/team/dashboards')).data[0];
  const pages = ['legislation', 'positions', 'follows', 'notes', 'targets', 'analytics', 'scorecard'].map(url);
  for (const kind of ['roll_call', 'voting_record', 'attendance', 'money_by_period', 'lobbying_by_client'])
    pages.push(`${url('analytics')}/${dash.id}/add/${kind}`);
  for (const path of pages) {
    const res = await b.get(path);
    assert.equal(res.status, 200, path);
    const visible = [...res.body.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).filter((i) => !/type="hidden"/.test(i));
    for (const input of visible) assert.doesNotMatch(input, /name="[^"]*(Id|Ref|refId)"/, `${path}: ${input}`);
    assert.doesNotMatch(res.body, /\bid\)|GUID/i, path);
  }
});
