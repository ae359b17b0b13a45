// The other dashboard pages, through their forms (no JavaScript): follows, positions, notes with
// subjects (authors edit and delete their own), target lists with contacted and votes, analytics
// dashboards with charts and versioned layout saves (a stale save is a 409 shown to the person),
// and people.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { csrfOf } from '../web/browser.ts';
import { api, startWorld, type World } from '../v2/team-helpers.ts';
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

describe('follows and positions', () => {
  test('an admin follows a bill and unfollows it; it shows on Legislation meanwhile', async () => {
    const b = browserWith(w.t, team.sessions.admin);
    const made = await b.submit(url('follows'), url('follows'), { type: 'legislation', refId: record, label: 'Key bill' });
    assert.equal(made.status, 303);
    const list = await b.get(url('follows'));
    assert.match(list.body, /Key bill/);
    assert.match((await b.get(url('legislation'))).body, new RegExp(`id="bill-${record}"`));
    const id = /id="follow-([^"]+)"/.exec(list.body)![1]!;
    assert.equal((await b.submit(url('follows'), `${url('follows')}/${id}/remove`, {})).status, 303);
    assert.doesNotMatch((await b.get(url('follows'))).body, /Key bill/);
  });

  test('a member cannot follow: the page says why', async () => {
    const b = browserWith(w.t, team.sessions.member);
    const page = await b.get(url('follows'));
    assert.match(page.body, /Only team owners and admins can change what the team follows/);
    const res = await b.post(url('follows'), { _csrf: csrfOf(page.body), type: 'legislation', refId: record });
    assert.equal(res.status, 403);
  });

  test('positions: add, relabel and remove, with history source "dashboard"', async () => {
    const b = browserWith(w.t, team.sessions.owner);
    assert.equal((await b.submit(url('positions'), url('positions'), { record, stance: 'supports', label: 'Housing' })).status, 303);
    assert.equal((await b.submit(url('positions'), url('positions'), { record, stance: 'opposes', label: 'Housing, amended' })).status, 303);
    const page = await b.get(url('positions'));
    assert.match(page.body, /Housing, amended/);
    const stance = (await api(w.t)(team.keys.owner, 'GET', `/team/legislation/${record}/stance`)).json();
    assert.deepEqual(
      stance.history.map((h: any) => [h.stance, h.source]),
      [
        ['opposes', 'dashboard'],
        ['supports', 'dashboard'],
      ],
    );
    const id = /id="position-([^"]+)"/.exec(page.body)![1]!;
    assert.equal((await b.submit(url('positions'), `${url('positions')}/${id}/remove`, {})).status, 303);
    assert.equal((await api(w.t)(team.keys.owner, 'GET', `/team/legislation/${record}/stance`)).statusCode, 404);
  });
});

describe('notes', () => {
  test('a member writes a note about a bill; only the author edits or deletes it', async () => {
    const member = browserWith(w.t, team.sessions.member);
    const owner = browserWith(w.t, team.sessions.owner);
    const made = await member.submit(url('notes'), url('notes'), {
      body: 'Sponsor is open to amendments.',
      // Typed into the subject picker without JavaScript: the server resolves the one match.
      'subject-text': record.toLowerCase(),
    });
    assert.equal(made.status, 303);
    const seen = await owner.get(url('notes'));
    assert.match(seen.body, /Sponsor is open to amendments\./);
    assert.match(
      seen.body,
      new RegExp(`About Bill <a href="/dashboard/${team.id}/records/matter/${record}"><strong>${record}</strong></a>`),
      'linked to the team’s view of the bill',
    );
    const id = /id="note-([^"]+)"/.exec(seen.body)![1]!;
    assert.doesNotMatch(seen.body, new RegExp(`notes/${id}/delete`));
    const forged = await owner.post(`${url('notes')}/${id}/delete`, { _csrf: csrfOf(seen.body) });
    assert.equal(forged.status, 403);
    assert.match(forged.body, /Only the author/);
    const edited = await member.submit(url('notes'), `${url('notes')}/${id}`, { body: 'Sponsor agreed.', subject: '', 'subject-text': '' });
    assert.equal(edited.status, 303);
    const after = await owner.get(url('notes'));
    assert.match(after.body, /Sponsor agreed\./);
    assert.doesNotMatch(after.body, /About Bill/);
    assert.equal((await member.submit(url('notes'), `${url('notes')}/${id}/delete`, {})).status, 303);
    assert.doesNotMatch((await owner.get(url('notes'))).body, /Sponsor agreed/);
  });

  test('an empty note or an unknown subject is refused with the reason', async () => {
    const b = browserWith(w.t, team.sessions.member);
    const empty = await b.submit(url('notes'), url('notes'), { body: '' });
    assert.equal(empty.status, 400);
    const unknown = await b.submit(url('notes'), url('notes'), { body: 'x', subject: 'person:nobody' });
    assert.equal(unknown.status, 404);
    assert.match(unknown.body, /No person/);
  });
});

describe('target lists', () => {
  test('targets with contacted and their votes on the bill', async () => {
    const rc = await w.t.ctx.services.publicData.rollCalls.list({ matter: record, limit: 1 });
    const detail = await w.t.ctx.services.publicData.rollCalls.get(rc.data[0]!.id);
    const voter = detail.votes[0]!;
    const b = browserWith(w.t, team.sessions.admin);
    await api(w.t)(team.keys.owner, 'PUT', `/team/legislation/${record}/stance`, { stance: 'supports' });
    const add = await b.submit(url('targets'), `${url('targets')}/${record}`, { personId: voter.personId });
    assert.equal(add.status, 303);
    assert.equal((await b.submit(url('targets'), `${url('targets')}/${record}/${voter.personId}/contacted`, {})).status, 303);
    const page = await b.get(url('targets'));
    const row = new RegExp(`<tr data-person="${voter.personId}">[\\s\\S]*?</tr>`).exec(page.body)![0];
    assert.match(row, new RegExp(voter.name));
    assert.match(row, />Contacted</);
    assert.match(row, new RegExp(`${voter.value} \\(${detail.date}`));
    const targets = (await api(w.t)(team.keys.owner, 'GET', `/team/legislation/${record}/targets`)).json();
    assert.deepEqual(targets, { onTargetList: [voter.personId], contacted: [voter.personId] });
    assert.equal((await b.submit(url('targets'), `${url('targets')}/${record}/${voter.personId}/remove`, {})).status, 303);
    assert.deepEqual((await api(w.t)(team.keys.owner, 'GET', `/team/legislation/${record}/targets`)).json().onTargetList, []);
  });

  test('a team without advocacy is told it needs the feature', async () => {
    const other = await dashboardTeam(w.t, ['team_data']);
    const res = await browserWith(w.t, other.sessions.owner).get(`/dashboard/${other.id}/targets`);
    assert.equal(res.status, 200);
    assert.match(res.body, /need the team feature &quot;advocacy&quot;/);
  });
});

describe('analytics', () => {
  test('charts from the public data; layout saves are versioned and a stale one is a 409', async () => {
    const b = browserWith(w.t, team.sessions.member);
    const made = await b.submit(url('analytics'), url('analytics'), { name: 'Council watch' });
    assert.equal(made.status, 303);
    const page = made.location!;
    const alder = w.seeded.alders[0]!;
    assert.equal((await b.submit(page, `${page}/widgets`, { baseVersion: '1', kind: 'roll_call', recordNumber: record })).status, 303);
    assert.equal((await b.submit(page, `${page}/widgets`, { baseVersion: '2', kind: 'voting_record', personId: alder.id })).status, 303);
    assert.equal((await b.submit(page, `${page}/widgets`, { baseVersion: '3', kind: 'money_by_period', period: 'year', ward: '1' })).status, 303);
    assert.equal((await b.submit(page, `${page}/widgets`, { baseVersion: '4', kind: 'lobbying_by_client' })).status, 303);
    assert.equal((await b.submit(page, `${page}/widgets`, { baseVersion: '5', kind: 'attendance', personId: alder.id })).status, 303);
    const view = await b.get(page);
    assert.equal(view.status, 200);
    assert.match(view.body, /data-version="6"/);
    const charts = view.body.match(/<svg [^>]*role="img"/g) ?? [];
    assert.ok(charts.length >= 4, `${charts.length} charts`);
    assert.match(view.body, new RegExp(`Roll call on ${record}`));
    assert.match(view.body, /data-label="Yea" data-value="\d+"/);
    assert.match(view.body, new RegExp(`Voting record of ${alder.name}`));
    assert.match(view.body, /Campaign receipts by year, ward 1/);
    assert.match(view.body, /Lobbying compensation by client/);
    // Every chart drew from its data; none fell back to a refusal.
    assert.doesNotMatch(view.body, /<div class="widget"[^>]*><p class="notice"/);

    // Someone else saved meanwhile (v2, as a team key): the form's version is stale.
    const id = page.split('/').pop()!;
    const v2 = await api(w.t)(team.keys.admin, 'PATCH', `/team/dashboards/${id}`, { baseVersion: 6, layout: { widgets: [] } });
    assert.equal(v2.statusCode, 200, v2.body);
    const stale = await b.post(`${page}/layout`, { _csrf: csrfOf(view.body), baseVersion: '6', layout: JSON.stringify({ widgets: [] }) });
    assert.equal(stale.status, 409);
    assert.match(stale.body, /saved since version 6; it is now at version 7/);
    assert.match(stale.body, /data-version="7"/);
    const bad = await b.submit(page, `${page}/layout`, { baseVersion: '7', layout: '{"widgets": [' });
    assert.equal(bad.status, 400);
    assert.match(bad.body, /not valid JSON/);
  });

  test('a layout typed with settings nested past the JSON cap is a 400 the page explains, not a 500', async () => {
    const b = browserWith(w.t, team.sessions.member);
    const page = (await b.submit(url('analytics'), url('analytics'), { name: 'Deep layout' })).location!;
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const layout = `{"widgets":[{"id":"w1","kind":"roll_call","position":{"x":0,"y":0},"size":{"w":1,"h":1},"settings":{"recordNumber":"${record}","extra":${deep}}}]}`;
    const res = await b.submit(page, `${page}/layout`, { baseVersion: '1', layout });
    assert.equal(res.status, 400);
    assert.match(res.body, /The layout nests deeper than 32 levels/);
  });

  test('a team without analytics is told it needs the feature', async () => {
    const other = await dashboardTeam(w.t, ['team_data']);
    const res = await browserWith(w.t, other.sessions.owner).get(`/dashboard/${other.id}/analytics`);
    assert.equal(res.status, 200);
    assert.match(res.body, /needs the team feature &quot;analytics&quot;/);
  });
});

describe('people', () => {
  test('lists and searches the people the team may see', async () => {
    const b = browserWith(w.t, team.sessions.member);
    const alder = w.seeded.alders[0]!;
    const all = await b.get(url('people'));
    assert.equal(all.status, 200);
    assert.match(all.body, /Alderperson/);
    const found = await b.get(`${url('people')}?q=${encodeURIComponent(alder.name.split(' ').at(-1)!)}`);
    assert.match(found.body, new RegExp(`id="person-${alder.id}"`));
    assert.equal((await b.get(`${url('people')}?kind=wizard`)).status, 400);
  });
});
