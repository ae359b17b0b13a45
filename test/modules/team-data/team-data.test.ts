// The team-data operations performed as the dashboard pages perform them: a session actor with
// source 'dashboard' in the stance history, the change feed (NOTIFY on team_events after each
// committed write, none for a refused one), and the same gates as the routes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { OperationId } from '../../../src/catalogue.ts';
import type { Actor } from '../../../src/kernel/actor.ts';
import type { SurfaceName } from '../../../src/kernel/catalogue.ts';
import { AppError } from '../../../src/kernel/errors.ts';
import { TEAM_CHANGES_CHANNEL, type TeamChange } from '../../../src/modules/team-data/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { seedPublicData, type Seeded } from '../../helpers/seed.ts';
import { makeTeam, signIn } from '../../surfaces/v2/team-helpers.ts';

let t: TestContext;
let seeded: Seeded;
const events: TeamChange[] = [];
let unlisten: () => Promise<void>;

before(async () => {
  t = await startTestContext();
  seeded = await seedPublicData(t.ctx.db);
  unlisten = await t.ctx.database.listen(TEAM_CHANGES_CHANNEL, (payload) => events.push(JSON.parse(payload)));
});
after(async () => {
  await unlisten?.();
  await t.close();
});

/** Waits until `n` events for the team have arrived (NOTIFY is delivered after commit, asynchronously). */
async function eventsFor(teamId: string, n: number): Promise<TeamChange[]> {
  for (let i = 0; i < 200; i++) {
    const mine = events.filter((e) => e.teamId === teamId);
    if (mine.length >= n) return mine;
    await new Promise((r) => setTimeout(r, 10));
  }
  return events.filter((e) => e.teamId === teamId);
}

async function sessionActor(email: string, teamId: string, session?: string) {
  const signedIn = await t.ctx.services.credentials.verifySession(session ?? (await signIn(t, email)));
  assert.ok(signedIn);
  return t.ctx.services.credentials.actingForTeam(signedIn, teamId);
}

/** Performs an operation as a surface does (the dashboard by default), through the same gates. */
async function perform(actor: Actor, id: OperationId, input: unknown, surface: SurfaceName = 'dashboard'): Promise<any> {
  return (await t.ctx.performer.perform(actor, id, input, { call: { surface }, count: false })).result;
}

test('the dashboard sets a stance with a session actor: history source "dashboard", credential type session', async () => {
  const team = await makeTeam(t, ['team_data', 'advocacy', 'analytics']);
  const owner = await t.ctx.services.accounts.get(team.owner);
  const actor = await sessionActor(owner.email, team.id);
  const record = seeded.matters[0]!.recordNumber;
  const set = await perform(actor, 'team.stance.set', { record, stance: 'supports' });
  assert.deepEqual(set.history[0]!.by, { accountId: owner.id, name: owner.name, credential: { type: 'session', id: actor.credential.id } });
  assert.equal(set.history[0]!.source, 'dashboard');
  // The positions route of the same row sees it; through v2 the source is v2's.
  const positions = await perform(actor, 'team.positions.list', { limit: 50 });
  assert.equal(positions.data[0]!.id, set.id);
  const keyActor = await t.ctx.services.credentials.verify({ token: team.keys.owner, ip: '127.0.0.1', surface: 'api' });
  const flipped = await perform(keyActor, 'team.stance.set', { record, stance: 'opposes' }, 'v2');
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
  const record = seeded.matters[1]!.recordNumber;
  const follow = await perform(actor, 'team.follows.create', { type: 'search', refId: 'budget' });
  const note = await perform(memberActor, 'team.notes.create', { body: 'Hello' });
  await perform(actor, 'team.positions.upsert', { positions: [{ recordId: record, stance: 'opposes', label: 'No' }] });
  await perform(actor, 'team.targets.add', { record, personIds: [seeded.alders[0]!.id] });
  const dash = await perform(memberActor, 'team.dashboards.create', { name: 'D' });
  await perform(actor, 'team.dashboards.delete', { id: dash.id });

  // Refused: a member cannot replace positions; an unknown record in a replace changes nothing.
  await assert.rejects(perform(memberActor, 'team.positions.replace', { positions: [] }), (e: unknown) => e instanceof AppError && e.code === 'forbidden');
  await assert.rejects(
    perform(actor, 'team.positions.replace', { positions: [{ recordId: 'O2099-404', stance: 'supports', label: '' }] }),
    (e: unknown) => e instanceof AppError && e.code === 'not_found',
  );
  await assert.rejects(
    perform(actor, 'team.notes.update', { id: note.id, change: { body: 'mine now' } }),
    (e: unknown) => e instanceof AppError && e.code === 'forbidden',
  );
  assert.equal((await perform(actor, 'team.positions.list', { limit: 50 })).data.length, 1);

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
