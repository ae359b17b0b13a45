// /me/follows, /team/follows and /team/notes over HTTP: shapes, resolution against the public
// data, context/role/feature denials, another team's ids, sizes, sessions and idempotent replays.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { operator } from '../../../src/kernel/actor.ts';
import { COUNCIL_ID, LOBBYIST_ID } from '../../helpers/seed.ts';
import { api, expectError, expectOk, makeTeam, personalKey, sessionHeaders, signIn, startWorld, type Team, type World } from './team-helpers.ts';

let w: World;
let call: ReturnType<typeof api>;
let team: Team;
let other: Team;

before(async () => {
  w = await startWorld();
  call = api(w.t);
  team = await makeTeam(w.t, ['team_data']);
  other = await makeTeam(w.t, ['team_data']);
});
after(async () => {
  await w.t.close();
});

test('personal follows: legislation, person, body and search, resolved and listed with cursors', async () => {
  const { key } = await personalKey(w.t);
  const matter = w.seeded.matters[0]!;
  const alder = w.seeded.alders[0]!;
  const created = [
    expectOk(await call(key, 'POST', '/me/follows', { type: 'legislation', refId: matter.recordNumber.toLowerCase(), label: 'Watch this' }), 201),
    expectOk(await call(key, 'POST', '/me/follows', { type: 'person', refId: alder.id }), 201),
    expectOk(await call(key, 'POST', '/me/follows', { type: 'body', refId: COUNCIL_ID }), 201),
    expectOk(await call(key, 'POST', '/me/follows', { type: 'search', refId: 'affordable housing' }), 201),
  ];
  assert.deepEqual(Object.keys(created[0]).sort(), ['createdAt', 'id', 'label', 'refId', 'type']);
  assert.equal(created[0].refId, matter.recordNumber, 'the record number is stored as the public data spells it');
  assert.equal(created[0].label, 'Watch this');
  assert.equal(created[1].label, alder.name, 'the label defaults to the record’s name');
  assert.equal(created[2].label, 'City Council');
  assert.equal(created[3].refId, 'affordable housing');

  const first = expectOk(await call(key, 'GET', '/me/follows?limit=3'));
  assert.equal(first.data.length, 3);
  assert.ok(first.meta.nextCursor);
  const second = expectOk(await call(key, 'GET', `/me/follows?limit=3&cursor=${first.meta.nextCursor}`));
  assert.deepEqual(
    [...first.data, ...second.data].map((f: any) => f.id),
    created.map((f) => f.id),
  );
  assert.equal(second.meta.nextCursor, null);
  expectError(await call(key, 'GET', '/me/follows?limit=0'), 400, 'invalid_request');
  expectError(await call(key, 'GET', '/me/follows?limit=201'), 400, 'invalid_request');
  expectError(await call(key, 'GET', '/me/follows?cursor=not*a*cursor'), 400, 'invalid_request');

  expectError(await call(key, 'POST', '/me/follows', { type: 'person', refId: alder.id }), 409, 'conflict');
  expectOk(await call(key, 'DELETE', `/me/follows/${created[1].id}`));
  expectError(await call(key, 'DELETE', `/me/follows/${created[1].id}`), 404, 'not_found');
  // Another person's follow does not exist for this caller.
  const stranger = await personalKey(w.t);
  expectError(await call(stranger.key, 'DELETE', `/me/follows/${created[0].id}`), 404, 'not_found');
  assert.equal(expectOk(await call(stranger.key, 'GET', '/me/follows')).data.length, 0);
});

test('follows of unknown records are 404 with a clear message; bad bodies and sizes are 400', async () => {
  const { key } = await personalKey(w.t);
  expectError(
    await call(key, 'POST', '/me/follows', { type: 'legislation', refId: 'O2099-0000001' }),
    404,
    'not_found',
    /No matter with record number "O2099-0000001"/,
  );
  expectError(await call(key, 'POST', '/me/follows', { type: 'person', refId: 'nobody' }), 404, 'not_found', /nobody/);
  expectError(await call(key, 'POST', '/me/follows', { type: 'body', refId: 'no-body' }), 404, 'not_found', /no-body/);
  expectError(await call(key, 'POST', '/me/follows', { type: 'vote', refId: 'x' }), 400, 'invalid_request');
  expectError(await call(key, 'POST', '/me/follows', { type: 'search', refId: 'x'.repeat(201) }), 400, 'invalid_request');
  expectError(await call(key, 'POST', '/me/follows', { type: 'search', refId: 'tax', label: 'l'.repeat(201) }), 400, 'invalid_request');
  expectOk(await call(key, 'POST', '/me/follows', { type: 'search', refId: 'x'.repeat(200), label: 'l'.repeat(200) }), 201);
});

test('/me/follows needs a personal credential; /team/follows a team one, the feature, and an owner or admin to write', async () => {
  expectError(await call(team.keys.owner, 'GET', '/me/follows'), 403, 'personal_only');
  expectError(await call(team.keys.owner, 'POST', '/me/follows', { type: 'search', refId: 'tif' }), 403, 'personal_only');
  // A signed-in session acting for a team is a team credential: personal follows are refused.
  const session = await signIn(w.t, (await w.t.ctx.services.accounts.get(team.owner)).email);
  expectError(await call(sessionHeaders(session, team.id), 'GET', '/me/follows'), 403, 'personal_only');
  expectOk(await call(sessionHeaders(session), 'GET', '/me/follows'));
  const personal = await w.t.ctx.services.credentials.keys.create({ accountId: team.owner, name: 'p', scopes: ['public.read'] });
  expectError(await call(personal.key, 'GET', '/team/follows'), 403, 'team_only');
  const { key: followsKey } = await personalKey(w.t);
  expectError(await call(followsKey, 'POST', '/team/follows', { type: 'search', refId: 'tif' }), 403, 'team_only');
  expectError(await call(sessionHeaders(session), 'GET', '/team/follows'), 403, 'team_only');

  const alder = w.seeded.alders[1]!;
  const follow = expectOk(await call(team.keys.admin, 'POST', '/team/follows', { type: 'person', refId: alder.id }), 201);
  // A member's session may read but not write team follows: the role, not a scope, is missing.
  expectError(await call(team.keys.member, 'POST', '/team/follows', { type: 'person', refId: LOBBYIST_ID }), 403, 'forbidden');
  const bySession = expectOk(await call(sessionHeaders(session, team.id), 'POST', '/team/follows', { type: 'person', refId: LOBBYIST_ID }), 201);
  assert.deepEqual(
    expectOk(await call(team.keys.member, 'GET', '/team/follows')).data.map((f: any) => f.id),
    [follow.id, bySession.id],
  );

  // Another team's follow is not found, never forbidden; the follow stays.
  expectError(await call(other.keys.owner, 'DELETE', `/team/follows/${follow.id}`), 404, 'not_found');
  assert.equal(expectOk(await call(other.keys.owner, 'GET', '/team/follows')).data.length, 0);
  expectOk(await call(team.keys.owner, 'DELETE', `/team/follows/${follow.id}`));

  const noFeature = await makeTeam(w.t, ['analytics']);
  expectError(await call(noFeature.keys.owner, 'GET', '/team/follows'), 403, 'feature_required', /team_data/);
});

test('a demoted admin’s key keeps its scopes on paper but its writes are 403 forbidden', async () => {
  const t2 = await makeTeam(w.t, ['team_data']);
  expectOk(await call(t2.keys.admin, 'POST', '/team/follows', { type: 'search', refId: 'zoning' }), 201);
  await w.t.ctx.services.accounts.members.setRole(operator, { teamId: t2.id, accountId: t2.admin, role: 'member' });
  expectError(await call(t2.keys.admin, 'POST', '/team/follows', { type: 'search', refId: 'parking' }), 403, 'forbidden', /member/);
  expectOk(await call(t2.keys.admin, 'GET', '/team/follows'));
});

test('team notes: any member writes; only the author edits or deletes; subjects resolve; sizes', async () => {
  const matter = w.seeded.matters[1]!;
  const meeting = w.seeded.meetings[0]!;
  const note = expectOk(
    await call(team.keys.member, 'POST', '/team/notes', { body: 'Call the sponsor', subject: { type: 'matter', refId: matter.recordNumber.toUpperCase() } }),
    201,
  );
  assert.deepEqual(Object.keys(note).sort(), ['authorId', 'authorName', 'body', 'createdAt', 'id', 'subject', 'updatedAt', 'yours']);
  // The author's name and whether the caller wrote it come with the note (the dashboard shows them, never joins them).
  assert.equal(note.authorName, (await w.t.ctx.services.accounts.get(team.member)).name);
  assert.equal(note.yours, true);
  const seenByOwner = expectOk(await call(team.keys.owner, 'GET', '/team/notes')).data.find((n: any) => n.id === note.id);
  assert.equal(seenByOwner.yours, false);
  assert.deepEqual(note.subject, { type: 'matter', refId: matter.recordNumber });
  assert.equal(note.authorId, team.member);
  const plain = expectOk(await call(team.keys.owner, 'POST', '/team/notes', { body: 'General note' }), 201);
  assert.equal(plain.subject, null);
  expectOk(await call(team.keys.owner, 'POST', '/team/notes', { body: 'At the meeting', subject: { type: 'meeting', refId: meeting.id } }), 201);
  expectOk(await call(team.keys.owner, 'POST', '/team/notes', { body: 'On the council', subject: { type: 'body', refId: COUNCIL_ID } }), 201);
  expectOk(await call(team.keys.owner, 'POST', '/team/notes', { body: 'On a person', subject: { type: 'person', refId: w.seeded.alders[2]!.id } }), 201);
  for (const subject of [
    { type: 'matter', refId: 'SO2099-1' },
    { type: 'person', refId: 'nobody' },
    { type: 'meeting', refId: 'no-meeting' },
    { type: 'body', refId: 'no-body' },
  ]) {
    expectError(await call(team.keys.owner, 'POST', '/team/notes', { body: 'x', subject }), 404, 'not_found');
  }
  expectError(await call(team.keys.owner, 'POST', '/team/notes', { body: 'x'.repeat(10_001) }), 400, 'invalid_request');
  expectError(await call(team.keys.owner, 'POST', '/team/notes', { body: '' }), 400, 'invalid_request');
  expectOk(await call(team.keys.owner, 'POST', '/team/notes', { body: 'x'.repeat(10_000) }), 201);

  const listed = expectOk(await call(team.keys.member, 'GET', '/team/notes?limit=2'));
  assert.equal(listed.data[0].body.length, 10_000, 'newest first');
  assert.ok(listed.meta.nextCursor);

  // Someone else's note of the same team: 403; another team's: 404; the author: 200.
  expectError(await call(team.keys.owner, 'PATCH', `/team/notes/${note.id}`, { body: 'Hijack' }), 403, 'forbidden');
  expectError(await call(team.keys.owner, 'DELETE', `/team/notes/${note.id}`), 403, 'forbidden');
  expectError(await call(other.keys.member, 'PATCH', `/team/notes/${note.id}`, { body: 'Hijack' }), 404, 'not_found');
  expectError(await call(other.keys.member, 'DELETE', `/team/notes/${note.id}`), 404, 'not_found');
  expectError(await call(team.keys.member, 'PATCH', `/team/notes/${note.id}`, {}), 400, 'invalid_request');
  const edited = expectOk(await call(team.keys.member, 'PATCH', `/team/notes/${note.id}`, { body: 'Called', subject: null }));
  assert.equal(edited.body, 'Called');
  assert.equal(edited.subject, null);
  assert.equal(edited.createdAt, note.createdAt);
  expectOk(await call(team.keys.member, 'DELETE', `/team/notes/${note.id}`));
  expectError(await call(team.keys.member, 'PATCH', `/team/notes/${note.id}`, { body: 'gone' }), 404, 'not_found');
  assert.equal(expectOk(await call(other.keys.owner, 'GET', '/team/notes')).data.length, 0);
});

test("one person's stored answer is never replayed to another person of the team: the same key and request is 422 for them", async () => {
  const headers = { 'idempotency-key': 'shared-key' };
  const first = await call(team.keys.owner, 'POST', '/team/notes', { body: 'Owner wrote this' }, headers);
  assert.equal(first.statusCode, 201);
  // The owner's own retry replays; the member (a dashboard session) and the admin sending the very same request do not.
  assert.equal((await call(team.keys.owner, 'POST', '/team/notes', { body: 'Owner wrote this' }, headers)).headers['idempotent-replayed'], 'true');
  for (const other of [team.keys.member, team.keys.admin]) {
    const res = await call(other, 'POST', '/team/notes', { body: 'Owner wrote this' }, headers);
    expectError(res, 422, 'idempotency_key_reused');
    assert.equal(res.headers['idempotent-replayed'], undefined);
  }
  // Nor can a person who may not make the change get the owner's answer: refused before the key is looked at.
  const patch = await call(team.keys.owner, 'PATCH', `/team/notes/${first.json().id}`, { body: 'edited' }, { 'idempotency-key': 'edit-key' });
  assert.equal(patch.statusCode, 200);
  expectError(
    await call(team.keys.member, 'PATCH', `/team/notes/${first.json().id}`, { body: 'edited' }, { 'idempotency-key': 'edit-key' }),
    422,
    'idempotency_key_reused',
  );
  const notes = expectOk(await call(team.keys.owner, 'GET', '/team/notes?limit=200')).data.filter(
    (n: any) => n.body === 'Owner wrote this' || n.body === 'edited',
  );
  assert.equal(notes.length, 1);
});

test('writes replay with the same Idempotency-Key and happen once', async () => {
  const headers = { 'idempotency-key': 'note-once' };
  const first = await call(team.keys.admin, 'POST', '/team/notes', { body: 'Exactly once' }, headers);
  const again = await call(team.keys.admin, 'POST', '/team/notes', { body: 'Exactly once' }, headers);
  assert.equal(first.statusCode, 201);
  assert.equal(again.headers['idempotent-replayed'], 'true');
  assert.equal(again.body, first.body);
  const all = expectOk(await call(team.keys.admin, 'GET', '/team/notes?limit=200')).data.filter((n: any) => n.body === 'Exactly once');
  assert.equal(all.length, 1);
  const del1 = await call(team.keys.admin, 'DELETE', `/team/notes/${first.json().id}`, undefined, { 'idempotency-key': 'del-once' });
  const del2 = await call(team.keys.admin, 'DELETE', `/team/notes/${first.json().id}`, undefined, { 'idempotency-key': 'del-once' });
  assert.equal(del1.statusCode, 200);
  assert.equal(del2.statusCode, 200, 'the replay answers as the first delete did, not 404');
  assert.equal(del2.headers['idempotent-replayed'], 'true');
});
