// Dashboards (the "Dashboard layout" table: versions, baseVersion conflicts, validation, sizes),
// the people routes (public/private split by the offices feature) and meeting testimony.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LOBBYIST_ID } from '../../helpers/seed.ts';
import { api, expectError, expectOk, makeTeam, seedPrivatePeople, startWorld, type Team, type World } from './team-helpers.ts';

let w: World;
let call: ReturnType<typeof api>;
let team: Team;
let other: Team;
let meetingId: string;

before(async () => {
  w = await startWorld();
  call = api(w.t);
  team = await makeTeam(w.t, ['analytics', 'people']);
  other = await makeTeam(w.t, ['analytics', 'people', 'offices'], ['people.private.read']);
  ({ meetingId } = await seedPrivatePeople(w));
});
after(async () => {
  await w.t.close();
});

const widget = (id: string, over: Record<string, unknown> = {}) => ({
  id,
  kind: 'roll_call',
  position: { x: 0, y: 0 },
  size: { w: 4, h: 3 },
  settings: { recordNumber: w.seeded.matters[0]!.recordNumber },
  ...over,
});

test('dashboards: create at version 1, rename, save layouts with and without baseVersion, delete', async () => {
  const created = expectOk(await call(team.keys.member, 'POST', '/team/dashboards', { name: 'Votes' }), 201);
  assert.deepEqual(Object.keys(created).sort(), ['createdBy', 'id', 'layout', 'name', 'updatedAt', 'version']);
  assert.deepEqual([created.version, created.layout, created.createdBy], [1, { widgets: [] }, team.member]);
  const renamed = expectOk(await call(team.keys.owner, 'PATCH', `/team/dashboards/${created.id}`, { name: 'Key votes' }));
  assert.deepEqual([renamed.name, renamed.version], ['Key votes', 1], 'a rename is not a layout save');
  const layout = { widgets: [widget('w1'), widget('w2', { kind: 'voting_record', settings: { personId: w.seeded.alders[0]!.id, from: '2023-01-01' } })] };
  const saved = expectOk(await call(team.keys.member, 'PATCH', `/team/dashboards/${created.id}`, { baseVersion: 1, layout }));
  assert.equal(saved.version, 2);
  assert.deepEqual(saved.layout, layout);
  // stale baseVersion → 409, unchanged
  expectError(
    await call(team.keys.owner, 'PATCH', `/team/dashboards/${created.id}`, { baseVersion: 1, layout: { widgets: [] } }),
    409,
    'conflict',
    /version 2/,
  );
  assert.deepEqual(expectOk(await call(team.keys.owner, 'GET', '/team/dashboards')).data[0].layout, layout);
  // without baseVersion the save is unconditional
  assert.equal(expectOk(await call(team.keys.owner, 'PATCH', `/team/dashboards/${created.id}`, { layout: { widgets: [] } })).version, 3);
  expectError(await call(team.keys.owner, 'PATCH', `/team/dashboards/${created.id}`, { baseVersion: 3 }), 400, 'invalid_request', /baseVersion/);
  // another team: 404 everywhere
  expectError(await call(other.keys.owner, 'PATCH', `/team/dashboards/${created.id}`, { name: 'Mine' }), 404, 'not_found');
  expectError(await call(other.keys.owner, 'DELETE', `/team/dashboards/${created.id}`), 404, 'not_found');
  assert.equal(expectOk(await call(other.keys.owner, 'GET', '/team/dashboards')).data.length, 0);
  expectOk(await call(team.keys.member, 'DELETE', `/team/dashboards/${created.id}`));
  expectError(await call(team.keys.member, 'PATCH', `/team/dashboards/${created.id}`, { name: 'x' }), 404, 'not_found');
});

test('two concurrent layout saves on one baseVersion: one wins, the other is 409', async () => {
  const d = expectOk(await call(team.keys.owner, 'POST', '/team/dashboards', { name: 'Race' }), 201);
  const save = (id: string) => call(team.keys.owner, 'PATCH', `/team/dashboards/${d.id}`, { baseVersion: 1, layout: { widgets: [widget(id)] } });
  const results = await Promise.all([save('a'), save('b')]);
  assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 409]);
  const winner = results.find((r) => r.statusCode === 200)!.json();
  const now = expectOk(await call(team.keys.owner, 'GET', '/team/dashboards?limit=200')).data.find((x: any) => x.id === d.id);
  assert.deepEqual([now.version, now.layout], [2, winner.layout]);
});

test('layouts are validated per widget kind and limited to 64 KiB; names to 200 characters', async () => {
  const bad = [
    { widgets: [widget('w', { settings: {} })] },
    { widgets: [widget('w', { kind: 'voting_record', settings: { recordNumber: 'x' } })] },
    { widgets: [widget('w', { kind: 'pie_chart' })] },
    { widgets: [widget('w', { size: { w: 0, h: 1 } })] },
    { widgets: [widget('w'), widget('w')] },
    { widgets: [widget('w', { kind: 'money_by_period', settings: { period: 'week' } })] },
    { widgets: [], extra: true },
  ];
  for (const layout of bad) expectError(await call(team.keys.owner, 'POST', '/team/dashboards', { name: 'Bad', layout }), 400, 'invalid_request');
  const big = { widgets: Array.from({ length: 200 }, (_, i) => widget(`w${i}`.padEnd(100, 'x'), { settings: { recordNumber: 'R'.repeat(200) } })) };
  assert.ok(Buffer.byteLength(JSON.stringify(big)) > 64 * 1024);
  expectError(await call(team.keys.owner, 'POST', '/team/dashboards', { name: 'Big', layout: big }), 400, 'invalid_request', /65536/);
  expectError(await call(team.keys.owner, 'POST', '/team/dashboards', { name: 'n'.repeat(201) }), 400, 'invalid_request');
  const ok = {
    widgets: [
      widget('a'),
      widget('b', { kind: 'attendance', settings: {} }),
      widget('c', { kind: 'lobbying_by_client', settings: { year: 2015 } }),
      widget('d', { kind: 'money_by_period', settings: { period: 'quarter', ward: 1 } }),
    ],
  };
  expectOk(await call(team.keys.owner, 'POST', '/team/dashboards', { name: 'n'.repeat(200), layout: ok }), 201);
});

test('dashboards need the analytics feature; people routes need the people feature', async () => {
  const plain = await makeTeam(w.t, ['team_data']);
  expectError(await call(plain.keys.owner, 'GET', '/team/dashboards'), 403, 'feature_required', /analytics/);
  expectError(await call(plain.keys.owner, 'POST', '/team/dashboards', { name: 'x' }), 403, 'feature_required');
  expectError(await call(plain.keys.owner, 'GET', '/people'), 403, 'feature_required', /people/);
  expectError(await call(plain.keys.owner, 'GET', `/meetings/${meetingId}/testimony`), 403, 'feature_required');
});

test('people: officials, staff and lobbyists with people.read; residents and representatives only with offices', async () => {
  const publicKinds = new Set(['alderperson', 'official', 'staff', 'lobbyist']);
  const list = expectOk(await call(team.keys.member, 'GET', '/people?limit=200')).data;
  assert.ok(list.some((p: any) => p.id === 'staff-1'));
  assert.ok(list.some((p: any) => p.id === LOBBYIST_ID));
  assert.ok(list.every((p: any) => publicKinds.has(p.kind)));
  expectOk(await call(team.keys.member, 'GET', '/people/staff-1'));
  expectError(await call(team.keys.member, 'GET', '/people/resident-1'), 404, 'not_found');
  expectError(await call(team.keys.member, 'GET', '/people?kind=resident'), 403, 'forbidden', /people\.private\.read/);
  const paged = expectOk(await call(team.keys.owner, 'GET', '/people?limit=2'));
  assert.equal(paged.data.length, 2);
  const next = expectOk(await call(team.keys.owner, 'GET', `/people?limit=2&cursor=${paged.meta.nextCursor}`));
  assert.notDeepEqual(next.data[0].id, paged.data[0].id);
  expectError(await call(team.keys.owner, 'GET', '/people?limit=201'), 400, 'invalid_request');

  const full = expectOk(await call(other.keys.owner, 'GET', '/people?limit=200')).data;
  assert.ok(full.some((p: any) => p.id === 'resident-1'));
  assert.ok(full.some((p: any) => p.id === 'orgrep-1'));
  assert.equal(expectOk(await call(other.keys.owner, 'GET', '/people/orgrep-1')).organization, 'Block Club');
  assert.deepEqual(
    expectOk(await call(other.keys.owner, 'GET', '/people?kind=resident')).data.map((p: any) => p.id),
    ['resident-1'],
  );
  // The scope without the feature (the team lost offices) shows public people only.
  await w.t.ctx.services.accounts.teams.setFeatures((await import('../../../src/kernel/actor.ts')).operator, {
    teamId: other.id,
    disable: ['offices'],
  });
  expectError(await call(other.keys.owner, 'GET', '/people/resident-1'), 404, 'not_found');
  await w.t.ctx.services.accounts.teams.setFeatures((await import('../../../src/kernel/actor.ts')).operator, {
    teamId: other.id,
    enable: ['offices'],
  });
});

test('testimony of a meeting: speakers in public capacities, plus residents and representatives with offices', async () => {
  const pub = expectOk(await call(team.keys.owner, 'GET', `/meetings/${meetingId}/testimony`)).data;
  assert.deepEqual(
    pub.map((t: any) => t.id),
    ['t1'],
  );
  assert.deepEqual(pub[0], {
    id: 't1',
    meetingId,
    matterId: null,
    speaker: { name: 'Sam Staff', kind: 'staff', organization: null },
    position: 'supports',
    mode: 'in_person',
    summary: 'Sam Staff spoke.',
  });
  const all = expectOk(await call(other.keys.owner, 'GET', `/meetings/${meetingId}/testimony`)).data;
  assert.deepEqual(
    all.map((t: any) => t.id),
    ['t1', 't2', 't3'],
  );
  assert.deepEqual(all[2].speaker, { name: 'Omar Org', kind: 'organization_rep', organization: 'Block Club' });
  expectError(await call(team.keys.owner, 'GET', '/meetings/no-such-meeting/testimony'), 404, 'not_found');
  const personal = await w.t.ctx.services.credentials.keys.create({ accountId: team.owner, name: 'p', scopes: ['public.read'] });
  expectError(await call(personal.key, 'GET', `/meetings/${meetingId}/testimony`), 403, 'team_only');
});
