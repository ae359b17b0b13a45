// Positions, stances (the spec's "Team stance on a bill" table) and target lists ("Target list
// membership", contacted moves) over HTTP, with team keys and signed-in sessions.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LOBBYIST_ID } from '../../helpers/seed.ts';
import { api, expectError, expectOk, makeTeam, startWorld, type Team, type World } from './team-helpers.ts';

let w: World;
let call: ReturnType<typeof api>;
let team: Team;
let other: Team;
let record: string;
let record2: string;

before(async () => {
  w = await startWorld();
  call = api(w.t);
  team = await makeTeam(w.t, ['team_data', 'advocacy']);
  other = await makeTeam(w.t, ['team_data', 'advocacy']);
  record = w.seeded.matters[0]!.recordNumber;
  record2 = w.seeded.matters[1]!.recordNumber;
});
after(async () => {
  await w.t.close();
});

const stanceUrl = (r: string) => `/team/legislation/${encodeURIComponent(r)}/stance`;

test('stance: every transition of the table, with history newest first and the positions row kept in step', async () => {
  // no stance + GET / DELETE → 404
  expectError(await call(team.keys.owner, 'GET', stanceUrl(record)), 404, 'not_found', /no stance/);
  expectError(await call(team.keys.owner, 'DELETE', stanceUrl(record)), 404, 'not_found');
  // no stance + PUT supports (owner key) → supports; the bill joins the positions
  const set = expectOk(await call(team.keys.owner, 'PUT', stanceUrl(record.toLowerCase()), { stance: 'supports', label: 'Good for renters' }));
  assert.equal(set.recordId, record);
  assert.equal(set.stance, 'supports');
  assert.equal(set.matterId, w.seeded.matters[0]!.id);
  assert.equal(set.history.length, 1);
  assert.deepEqual(set.history[0].by.credential.type, 'api_key');
  assert.equal(set.history[0].by.accountId, team.owner);
  assert.equal(set.history[0].source, 'v2.stance');
  assert.equal(set.history[0].previous, null);
  const positions = expectOk(await call(team.keys.admin, 'GET', '/team/positions')).data;
  assert.deepEqual(positions, [
    { id: set.id, recordId: record, matterId: set.matterId, label: 'Good for renters', stance: 'supports', updatedAt: set.updatedAt },
  ]);
  // the same stance again changes nothing
  assert.equal(expectOk(await call(team.keys.owner, 'PUT', stanceUrl(record), { stance: 'supports' })).history.length, 1);
  // supports + PUT opposes (admin key) → opposes, previous set
  const flipped = expectOk(await call(team.keys.admin, 'PUT', stanceUrl(record), { stance: 'opposes' }));
  assert.equal(flipped.stance, 'opposes');
  assert.equal(flipped.label, 'Good for renters', 'the label is kept when omitted');
  assert.deepEqual([flipped.history[0].stance, flipped.history[0].previous, flipped.history[0].by.accountId], ['opposes', 'supports', team.admin]);
  // a member (session) cannot; a bad value is 400
  expectError(await call(team.keys.member, 'PUT', stanceUrl(record), { stance: 'supports' }), 403, 'forbidden');
  expectError(await call(team.keys.member, 'DELETE', stanceUrl(record)), 403, 'forbidden');
  expectError(await call(team.keys.owner, 'PUT', stanceUrl(record), { stance: 'neutral' }), 400, 'invalid_request');
  expectError(await call(team.keys.owner, 'PUT', stanceUrl('O2099-9999999'), { stance: 'supports' }), 404, 'not_found');
  // another team sees no stance and cannot clear this one
  expectError(await call(other.keys.owner, 'GET', stanceUrl(record)), 404, 'not_found');
  expectError(await call(other.keys.owner, 'DELETE', stanceUrl(record)), 404, 'not_found');
  expectError(await call(other.keys.owner, 'DELETE', `/team/positions/${set.id}`), 404, 'not_found');
  // the member reads it
  assert.equal(expectOk(await call(team.keys.member, 'GET', stanceUrl(record))).stance, 'opposes');
  // opposes + DELETE (owner) → no stance; history keeps a null entry; positions lose the bill
  expectOk(await call(team.keys.owner, 'DELETE', stanceUrl(record)));
  expectError(await call(team.keys.owner, 'GET', stanceUrl(record)), 404, 'not_found');
  assert.equal(expectOk(await call(team.keys.owner, 'GET', '/team/positions')).data.length, 0);
  const again = expectOk(await call(team.keys.owner, 'PUT', stanceUrl(record), { stance: 'supports' }));
  assert.deepEqual(
    again.history.map((h: any) => [h.stance, h.previous]),
    [
      ['supports', null],
      [null, 'opposes'],
      ['opposes', 'supports'],
      ['supports', null],
    ],
  );
  expectOk(await call(team.keys.owner, 'DELETE', stanceUrl(record)));
});

test('a signed-in owner session sets stances too (credential type session)', async () => {
  const { signIn, sessionHeaders } = await import('./team-helpers.ts');
  const session = sessionHeaders(await signIn(w.t, (await w.t.ctx.services.accounts.get(team.owner)).email), team.id);
  const res = expectOk(await call(session, 'PUT', stanceUrl(record2), { stance: 'opposes' }));
  assert.equal(res.history[0].by.credential.type, 'session');
  assert.equal(res.history[0].source, 'v2.stance');
  expectOk(await call(session, 'DELETE', stanceUrl(record2)));
});

test('positions: PUT replaces the set, POST adds or updates by record; both are the stance row and write history', async () => {
  const put = expectOk(
    await call(team.keys.owner, 'PUT', '/team/positions', {
      positions: [
        { recordId: record, stance: 'supports', label: 'Yes' },
        { recordId: record2, stance: 'opposes', label: 'No' },
      ],
    }),
  );
  assert.deepEqual(
    put.data.map((p: any) => [p.recordId, p.stance]),
    [
      [record, 'supports'],
      [record2, 'opposes'],
    ],
  );
  const stance = expectOk(await call(team.keys.owner, 'GET', stanceUrl(record2)));
  assert.equal(stance.id, put.data[1].id, 'the stance is the positions row');
  assert.equal(stance.history[0].source, 'v2.positions');
  // POST updates one by record and leaves the other
  const post = expectOk(
    await call(team.keys.admin, 'POST', '/team/positions', {
      positions: [{ recordId: record2.toLowerCase(), stance: 'supports', label: 'Changed our minds' }],
    }),
  );
  assert.deepEqual(
    post.data.map((p: any) => [p.id, p.stance]),
    [[put.data[1].id, 'supports']],
  );
  assert.equal(expectOk(await call(team.keys.owner, 'GET', '/team/positions')).data.length, 2);
  // PUT with one bill clears the other (history entry with stance null)
  expectOk(await call(team.keys.owner, 'PUT', '/team/positions', { positions: [{ recordId: record2, stance: 'supports', label: 'Changed our minds' }] }));
  expectError(await call(team.keys.owner, 'GET', stanceUrl(record)), 404, 'not_found');
  // an unknown record or a duplicate changes nothing
  expectError(
    await call(team.keys.owner, 'PUT', '/team/positions', { positions: [{ recordId: 'O2099-1', stance: 'supports', label: '' }] }),
    404,
    'not_found',
    /O2099-1/,
  );
  expectError(
    await call(team.keys.owner, 'PUT', '/team/positions', {
      positions: [
        { recordId: record, stance: 'supports', label: '' },
        { recordId: record.toLowerCase(), stance: 'opposes', label: '' },
      ],
    }),
    400,
    'invalid_request',
  );
  expectError(
    await call(team.keys.owner, 'POST', '/team/positions', { positions: [{ recordId: record, stance: 'supports', label: 'x'.repeat(201) }] }),
    400,
    'invalid_request',
  );
  assert.deepEqual(
    expectOk(await call(team.keys.owner, 'GET', '/team/positions')).data.map((p: any) => p.recordId),
    [record2],
  );
  expectError(await call(team.keys.member, 'PUT', '/team/positions', { positions: [] }), 403, 'forbidden');
  // DELETE /team/positions/{id} clears the stance
  const [pos] = expectOk(await call(team.keys.owner, 'GET', '/team/positions')).data;
  expectOk(await call(team.keys.owner, 'DELETE', `/team/positions/${pos.id}`));
  expectError(await call(team.keys.owner, 'DELETE', `/team/positions/${pos.id}`), 404, 'not_found');
  expectError(await call(team.keys.owner, 'GET', stanceUrl(record2)), 404, 'not_found');
});

test('targets: add up to 50 officials, remove, move in and out of contacted; advocacy and roles enforced', async () => {
  const url = `/team/legislation/${encodeURIComponent(record)}/targets`;
  const [a, b, c] = w.seeded.alders.map((x) => x.id);
  assert.deepEqual(expectOk(await call(team.keys.member, 'GET', url)), { onTargetList: [], contacted: [] });
  // not on list + POST → on list (duplicates within and across requests are fine)
  assert.deepEqual(expectOk(await call(team.keys.owner, 'POST', url, { personIds: [a, b, a] })), { onTargetList: [a, b], contacted: [] });
  assert.deepEqual(expectOk(await call(team.keys.admin, 'POST', url, { personIds: [b, c] })).onTargetList, [a, b, c]);
  // only people who exist and vote or decide; nothing is added when one is unknown
  expectError(await call(team.keys.owner, 'POST', url, { personIds: [a, 'nobody-1'] }), 404, 'not_found', /nobody-1/);
  expectError(await call(team.keys.owner, 'POST', url, { personIds: [LOBBYIST_ID] }), 404, 'not_found');
  expectError(await call(team.keys.owner, 'POST', url, { personIds: Array.from({ length: 51 }, (_, i) => `p${i}`) }), 400, 'invalid_request');
  expectError(await call(team.keys.owner, 'POST', url, { personIds: [] }), 400, 'invalid_request');
  expectError(await call(team.keys.owner, 'POST', `/team/legislation/O2099-1/targets`, { personIds: [a] }), 404, 'not_found');
  // contacted ⊆ onTargetList
  assert.deepEqual(expectOk(await call(team.keys.owner, 'POST', `${url}/${b}/contacted`)).contacted, [b]);
  assert.deepEqual(expectOk(await call(team.keys.owner, 'POST', `${url}/${b}/contacted`)).contacted, [b], 'marking twice is a no-op');
  expectError(await call(team.keys.owner, 'POST', `${url}/${w.seeded.alders[5]!.id}/contacted`), 404, 'not_found', /not on the target list/);
  expectError(await call(team.keys.owner, 'DELETE', `${url}/${a}/contacted`), 404, 'not_found', /contacted/);
  assert.deepEqual(expectOk(await call(team.keys.owner, 'DELETE', `${url}/${b}/contacted`)), { onTargetList: [a, b, c], contacted: [] });
  expectOk(await call(team.keys.owner, 'POST', `${url}/${c}/contacted`));
  // on list + DELETE → not on list (and out of contacted); not on list + DELETE → 404
  assert.deepEqual(expectOk(await call(team.keys.owner, 'DELETE', `${url}/${c}`)), { onTargetList: [a, b], contacted: [] });
  expectError(await call(team.keys.owner, 'DELETE', `${url}/${c}`), 404, 'not_found');
  // roles, other team, feature
  expectError(await call(team.keys.member, 'POST', url, { personIds: [c] }), 403, 'forbidden');
  assert.deepEqual(expectOk(await call(other.keys.owner, 'GET', url)), { onTargetList: [], contacted: [] });
  expectError(await call(other.keys.owner, 'DELETE', `${url}/${a}`), 404, 'not_found');
  expectError(await call(other.keys.owner, 'POST', `${url}/${a}/contacted`), 404, 'not_found');
  const plain = await makeTeam(w.t, ['team_data']);
  expectError(await call(plain.keys.owner, 'GET', url), 403, 'feature_required', /advocacy/);
  expectError(await call(plain.keys.owner, 'POST', url, { personIds: [a] }), 403, 'feature_required');
  // idempotent replay of an add
  const h = { 'idempotency-key': 'targets-once' };
  const first = await call(team.keys.owner, 'POST', url, { personIds: [c] }, h);
  const replay = await call(team.keys.owner, 'POST', url, { personIds: [c] }, h);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(replay.body, first.body);
});
