// The live stream of a team's dashboard over real HTTP: a v2 write reaches an open stream; a
// removed member's stream ends at once; closed connections leave the hub; and two instances on
// one PostgreSQL database share events (LISTEN/NOTIFY).
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createFastify } from '../../../src/app.ts';
import { sql } from 'kysely';
import { accountActor } from '../../helpers/actors.ts';
import { dashboardSurface } from '../../../src/surfaces/dashboard/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { api, startWorld, type World } from '../v2/team-helpers.ts';
import { type DashboardTeam, dashboardTeam, eventually, openStream } from './helpers.ts';

let w: World;
let team: DashboardTeam;
let port: number;
let record: string;

before(async () => {
  w = await startWorld();
  team = await dashboardTeam(w.t);
  record = w.seeded.rollCalls[0]!.recordNumber;
  await w.t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (w.t.app.server.address() as AddressInfo).port;
});
after(async () => {
  await w.t.close();
});

const events = (teamId = team.id) => `/dashboard/${teamId}/events`;
const cookie = (session: string) => `ct_session=${session}`;
const teamEvent = (kind: string) => (e: { event: string; data: string }) => e.event === 'team' && JSON.parse(e.data).kind === kind;

describe('the event stream', () => {
  test('is an event stream for members: a v2 write with a team key arrives on it', async () => {
    const s = await openStream(port, events(), cookie(team.sessions.member));
    try {
      assert.equal(s.status, 200);
      assert.match(String(s.headers['content-type']), /^text\/event-stream/);
      assert.equal(s.headers['cache-control'], 'no-store');
      assert.ok(s.comments.includes('connected'));
      const res = await api(w.t)(team.keys.admin, 'PUT', `/team/legislation/${record}/stance`, { stance: 'supports' });
      assert.equal(res.statusCode, 200, res.body);
      const e = await s.waitFor(teamEvent('stance'));
      const data = JSON.parse(e.data);
      assert.equal(data.action, 'created');
      assert.equal(data.id, res.json().id);
      // A note written from the dashboard by another member arrives too.
      const note = await api(w.t)(team.keys.owner, 'POST', '/team/notes', { body: 'Call the sponsor.' });
      assert.equal(note.statusCode, 201, note.body);
      await s.waitFor(teamEvent('note'));
    } finally {
      s.close();
    }
  });

  test('anything on the channel that is not a team event is ignored', async () => {
    const s = await openStream(port, events(), cookie(team.sessions.owner));
    try {
      for (const junk of ['not json', '{}', JSON.stringify({ teamId: team.id, kind: 'secret', action: 'created', id: 'x', at: 'now' })]) {
        await sql`select pg_notify('team_events', ${junk})`.execute(w.t.ctx.db);
      }
      const note = await api(w.t)(team.keys.owner, 'POST', '/team/notes', { body: 'After the junk' });
      const e = await s.waitFor((x) => x.event === 'team');
      assert.equal(JSON.parse(e.data).id, note.json().id);
      assert.equal(s.events.length, 1);
    } finally {
      s.close();
    }
  });

  test("another team's writes do not reach it", async () => {
    const other = await dashboardTeam(w.t);
    const s = await openStream(port, events(), cookie(team.sessions.owner));
    try {
      const theirs = await api(w.t)(other.keys.owner, 'POST', '/team/notes', { body: 'Theirs' });
      assert.equal(theirs.statusCode, 201);
      const ours = await api(w.t)(team.keys.owner, 'POST', '/team/notes', { body: 'Ours' });
      const e = await s.waitFor(teamEvent('note'));
      assert.equal(JSON.parse(e.data).id, ours.json().id);
      assert.ok(!s.events.some((x) => x.data.includes(theirs.json().id)));
    } finally {
      s.close();
    }
  });

  test('signed out is sent to sign in; outside the team is 404', async () => {
    const anon = await w.t.app.inject({ method: 'GET', url: events() });
    assert.equal(anon.statusCode, 303);
    const outsider = await openStream(port, events(), cookie(team.sessions.outsider));
    assert.equal(outsider.status, 404);
    await outsider.ended;
  });

  test('a member removed from the team loses the stream at once, and cannot open it again', async () => {
    const fresh = await dashboardTeam(w.t);
    const s = await openStream(port, events(fresh.id), cookie(fresh.sessions.member));
    assert.equal(s.status, 200);
    await w.t.ctx.services.accounts.members.remove(accountActor(fresh.owner), { teamId: fresh.id, accountId: fresh.member });
    const closed = await s.waitFor((e) => e.event === 'closed');
    assert.equal(JSON.parse(closed.data).reason, 'removed');
    await s.ended;
    assert.equal(w.t.ctx.services.live.hub.count(fresh.id), 0);
    const again = await openStream(port, events(fresh.id), cookie(fresh.sessions.member));
    assert.equal(again.status, 404);
    await again.ended;
  });

  test('membership is re-checked on every event: a signed-out session stops receiving', async () => {
    const fresh = await dashboardTeam(w.t);
    const s = await openStream(port, events(fresh.id), cookie(fresh.sessions.admin));
    await w.t.ctx.services.sessions.signOut(fresh.sessions.admin);
    await api(w.t)(fresh.keys.owner, 'POST', '/team/notes', { body: 'After sign-out' });
    const closed = await s.waitFor((e) => e.event === 'closed');
    assert.equal(JSON.parse(closed.data).reason, 'not_allowed');
    assert.ok(!s.events.some((e) => e.event === 'team'));
    await s.ended;
  });

  test('a closed connection leaves the hub', async () => {
    const fresh = await dashboardTeam(w.t);
    const hub = w.t.ctx.services.live.hub;
    const a = await openStream(port, events(fresh.id), cookie(fresh.sessions.owner));
    const b = await openStream(port, events(fresh.id), cookie(fresh.sessions.member));
    assert.equal(hub.count(fresh.id), 2);
    a.close();
    await eventually(() => hub.count(fresh.id) === 1, 5000, 'one stream left');
    b.close();
    await eventually(() => hub.count(fresh.id) === 0, 5000, 'no stream left');
  });
});

describe('heartbeat', () => {
  test('an idle stream gets comment lines that keep it open', async () => {
    // The same surface on the same services, with a short heartbeat.
    const app = createFastify(w.t.ctx);
    await app.register(dashboardSurface(w.t.ctx, { heartbeatMs: 20 }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const s = await openStream((app.server.address() as AddressInfo).port, events(), cookie(team.sessions.owner));
      await eventually(() => s.comments.filter((c) => c === 'heartbeat').length >= 2, 5000, 'two heartbeats');
      assert.deepEqual(s.events, []);
      s.close();
    } finally {
      await app.close();
    }
  });
});

const onServer = Boolean(process.env.DATABASE_URL);
describe('two instances on one PostgreSQL database', { skip: !onServer && 'needs DATABASE_URL' }, () => {
  let second: TestContext;
  let secondPort: number;
  before(async () => {
    if (!onServer) return;
    second = await startTestContext({ databaseUrl: w.t.config.databaseUrl! });
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    secondPort = (second.app.server.address() as AddressInfo).port;
  });
  after(async () => {
    await second?.close();
  });

  test('a write on instance A reaches a stream on instance B; a removal on A closes it', async () => {
    const fresh = await dashboardTeam(w.t);
    const s = await openStream(secondPort, events(fresh.id), cookie(fresh.sessions.member));
    assert.equal(s.status, 200);
    const res = await api(w.t)(fresh.keys.admin, 'PUT', `/team/legislation/${record}/stance`, { stance: 'opposes' });
    assert.equal(res.statusCode, 200, res.body);
    await s.waitFor(teamEvent('stance'));
    await w.t.ctx.services.accounts.members.remove(accountActor(fresh.owner), { teamId: fresh.id, accountId: fresh.member });
    await s.waitFor((e) => e.event === 'closed');
    await s.ended;
  });
});
