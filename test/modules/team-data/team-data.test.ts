// The team-data services called directly, as the dashboard pages call them: a session actor with
// source 'dashboard' in the stance history, the change feed (NOTIFY on team_events after each
// committed write, none for a refused one), and the same gates as the routes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { AppError } from '../../../src/kernel/errors.ts';
import { TEAM_EVENTS_CHANNEL, type TeamEvent } from '../../../src/modules/team-data/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { seedPublicData, type Seeded } from '../../helpers/seed.ts';
import { makeTeam, signIn } from '../../surfaces/v2/team-helpers.ts';

let t: TestContext;
let seeded: Seeded;
const events: TeamEvent[] = [];
let unlisten: () => Promise<void>;

before(async () => {
  t = await startTestContext();
  seeded = await seedPublicData(t.ctx.db);
  unlisten = await t.ctx.database.listen(TEAM_EVENTS_CHANNEL, (payload) => events.push(JSON.parse(payload)));
});
after(async () => {
  await unlisten?.();
  await t.close();
});

/** Waits until `n` events for the team have arrived (NOTIFY is delivered after commit, asynchronously). */
async function eventsFor(teamId: string, n: number): Promise<TeamEvent[]> {
  for (let i = 0; i < 200; i++) {
    const mine = events.filter((e) => e.teamId === teamId);
    if (mine.length >= n) return mine;
    await new Promise((r) => setTimeout(r, 10));
  }
  return events.filter((e) => e.teamId === teamId);
}

async function sessionActor(email: string, teamId: string, session?: string) {
  const actor = await t.ctx.services.sessions.actorFromSession(session ?? (await signIn(t, email)), { teamId });
  assert.ok(actor);
  return actor;
}

test('the dashboard sets a stance with a session actor: history source "dashboard", credential type session', async () => {
  const team = await makeTeam(t, ['team_data', 'advocacy', 'analytics']);
  const owner = await t.ctx.services.accounts.get(team.owner);
  const actor = await sessionActor(owner.email, team.id);
  const td = t.ctx.services.teamData;
  const record = seeded.matters[0]!.recordNumber;
  const set = await td.stance.set(actor, { record, stance: 'supports' }, { source: 'dashboard' });
  assert.deepEqual(set.history[0]!.by, { accountId: owner.id, name: owner.name, credential: { type: 'session', id: actor.credential.id } });
  assert.equal(set.history[0]!.source, 'dashboard');
  // The positions route of the same row sees it; a key cannot claim to be the dashboard.
  const positions = await td.positions.list(actor, { limit: 50 });
  assert.equal(positions.data[0]!.id, set.id);
  const keyActor = await t.ctx.services.credentials.verify({ token: team.keys.owner, ip: '127.0.0.1', surface: 'api' });
  const flipped = await td.stance.set(keyActor, { record, stance: 'opposes' }, { source: 'dashboard' });
  assert.equal(flipped.history[0]!.source, 'v2.stance');

  const got = await eventsFor(team.id, 2);
  assert.deepEqual(
    got.map((e) => [e.kind, e.action, e.id]),
    [
      ['stance', 'created', set.id],
      ['stance', 'updated', set.id],
    ],
  );
  assert.ok(got.every((e) => !Number.isNaN(Date.parse(e.at))));
});

test('every committed team write publishes one event; a refused write publishes none and changes nothing', async () => {
  const team = await makeTeam(t, ['team_data', 'advocacy', 'analytics']);
  const owner = await t.ctx.services.accounts.get(team.owner);
  const member = await t.ctx.services.accounts.get(team.member);
  const actor = await sessionActor(owner.email, team.id);
  // makeTeam already signed the member in (one link at a time): reuse that session.
  const memberActor = await sessionActor(member.email, team.id, team.keys.member.cookie!.replace('ct_session=', ''));
  const td = t.ctx.services.teamData;
  const record = seeded.matters[1]!.recordNumber;
  const follow = await td.teamFollows.create(actor, { type: 'search', refId: 'budget' });
  const note = await td.notes.create(memberActor, { body: 'Hello' });
  await td.positions.upsert(actor, { positions: [{ recordId: record, stance: 'opposes', label: 'No' }] });
  await td.targets.add(actor, { record, personIds: [seeded.alders[0]!.id] });
  const dash = await td.dashboards.create(memberActor, { name: 'D' });
  await td.dashboards.remove(actor, { id: dash.id });

  // Refused: a member cannot replace positions; an unknown record in a replace changes nothing.
  await assert.rejects(td.positions.replace(memberActor, { positions: [] }), (e: unknown) => e instanceof AppError && e.code === 'forbidden');
  await assert.rejects(
    td.positions.replace(actor, { positions: [{ recordId: 'O2099-404', stance: 'supports', label: '' }] }),
    (e: unknown) => e instanceof AppError && e.code === 'not_found',
  );
  await assert.rejects(td.notes.update(actor, { id: note.id, change: { body: 'mine now' } }), (e: unknown) => e instanceof AppError && e.code === 'forbidden');
  assert.equal((await td.positions.list(actor, { limit: 50 })).data.length, 1);

  const got = await eventsFor(team.id, 6);
  assert.deepEqual(
    got.map((e) => `${e.kind}.${e.action}`),
    ['follow.created', 'note.created', 'position.created', 'targets.updated', 'dashboard.created', 'dashboard.deleted'],
  );
  assert.equal(got[0]!.id, follow.id);
  assert.equal(got[3]!.id, seeded.matters[1]!.id, 'a targets event names the matter');
});

test('a layout whose settings nest thousands deep is refused as invalid_request, not a stack overflow', async () => {
  const team = await makeTeam(t, ['team_data', 'analytics']);
  const owner = await t.ctx.services.accounts.get(team.owner);
  const actor = await sessionActor(owner.email, team.id);
  const td = t.ctx.services.teamData;
  let deep: unknown = 'x';
  for (let i = 0; i < 100_000; i++) deep = { a: deep };
  const widget = { id: 'w1', kind: 'roll_call', position: { x: 0, y: 0 }, size: { w: 1, h: 1 } };
  const invalid = (e: unknown) => e instanceof AppError && e.code === 'invalid_request';
  for (const settings of [deep, { recordNumber: seeded.matters[0]!.recordNumber, extra: deep }]) {
    const layout = { widgets: [{ ...widget, settings }] } as never;
    await assert.rejects(td.dashboards.create(actor, { name: 'Deep', layout }), invalid);
    const dash = await td.dashboards.create(actor, { name: 'Flat' });
    await assert.rejects(td.dashboards.update(actor, { id: dash.id, change: { layout } }), invalid);
  }
});
