// Shared set-up of the team-data route tests: a real app with the public sample records, teams
// made through the accounts service and keys through the credentials service, and a few private
// people and testimony rows (the sample has none) written the way ingest writes them.
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import { operator } from '../../../src/kernel/actor.ts';
import type { Scope } from '../../../src/kernel/access.ts';
import { csrfTokenFor } from '../../../src/modules/sessions/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { seedPublicData, type Seeded } from '../../helpers/seed.ts';

export const allTeamScopes: Scope[] = [
  'team.follows.read',
  'team.follows.write',
  'team.notes.read',
  'team.notes.write',
  'team.positions.read',
  'team.positions.write',
  'team.dashboards.read',
  'team.dashboards.write',
  'people.read',
];

export interface World {
  t: TestContext;
  seeded: Seeded;
}

export async function startWorld(): Promise<World> {
  const t = await startTestContext();
  const seeded = await seedPublicData(t.ctx.db);
  return { t, seeded };
}

let n = 0;
export interface Team {
  id: string;
  owner: string;
  admin: string;
  member: string;
  /**
   * Owner's and admin's keys (all team scopes); a member cannot make team keys, so the member acts
   * through a signed-in dashboard session for the team (its headers).
   */
  keys: { owner: string; admin: string; adminId: string; member: Record<string, string> };
}

/** A team with an owner, an admin and a member, each with a credential. */
export async function makeTeam(t: TestContext, features: string[], extraScopes: Scope[] = []): Promise<Team> {
  const { accounts, credentials } = t.ctx.services;
  const tag = `${process.pid}-${++n}`;
  const owner = await accounts.create({ email: `owner-${tag}@example.org`, name: `Owner ${tag}` });
  const admin = await accounts.create({ email: `admin-${tag}@example.org`, name: `Admin ${tag}` });
  const member = await accounts.create({ email: `member-${tag}@example.org`, name: `Member ${tag}` });
  const team = await accounts.teams.create(operator, { name: `Team ${tag}`, ownerAccountId: owner.id, features });
  await accounts.members.add(operator, { teamId: team.id, accountId: admin.id, role: 'admin' });
  await accounts.members.add(operator, { teamId: team.id, accountId: member.id, role: 'member' });
  const key = async (accountId: string, scopes: Scope[]) =>
    credentials.keys.create({ accountId, teamId: team.id, name: 'team test', scopes: [...scopes, ...extraScopes] });
  const adminKey = await key(admin.id, allTeamScopes);
  return {
    id: team.id,
    owner: owner.id,
    admin: admin.id,
    member: member.id,
    keys: {
      owner: (await key(owner.id, allTeamScopes)).key,
      admin: adminKey.key,
      adminId: adminKey.id,
      member: sessionHeaders(await signIn(t, member.email), team.id),
    },
  };
}

export async function personalKey(t: TestContext, scopes: Scope[] = ['me.follows.read', 'me.follows.write']): Promise<{ key: string; accountId: string }> {
  const account = await t.ctx.services.accounts.create({ email: `solo-${process.pid}-${++n}@example.org`, name: 'Solo' });
  const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'personal', scopes });
  return { key, accountId: account.id };
}

/** Each sign-in comes from a /64 of its own (in 2001:db8::/32, RFC 3849): tests sign many people in, and one address may ask for only so many links an hour. */
let signins = 0;
const nextAddress = () => `2001:db8:5160:${(++signins).toString(16)}::1`;

/** Signs in by email link as the person with this email; returns the session cookie value. */
export async function signIn(t: TestContext, email: string): Promise<string> {
  await t.ctx.services.sessions.requestLink(email, nextAddress());
  const mail = t.ctx.services.mailer.outbox().findLast((m) => m.to === email);
  const code = /code=([^\s&]+)/.exec(mail!.text)![1]!;
  return (await t.ctx.services.sessions.useLink(decodeURIComponent(code))).token;
}

/** Headers of a dashboard session acting for a team (writes carry its CSRF token). */
export function sessionHeaders(session: string, teamId?: string): Record<string, string> {
  return { cookie: `ct_session=${session}`, 'x-csrf-token': csrfTokenFor(session), ...(teamId ? { 'x-team-id': teamId } : {}) };
}

export function api(t: TestContext) {
  return (
    auth: string | Record<string, string>,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url: `/api/v2${url}`,
      headers: { ...(typeof auth === 'string' ? { authorization: `Bearer ${auth}` } : auth), ...headers },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

export function expectError(res: LightMyRequestResponse, status: number, code: string, message?: RegExp): void {
  assert.equal(res.statusCode, status, res.body);
  const body = res.json();
  assert.deepEqual(Object.keys(body), ['error']);
  assert.equal(body.error.code, code, res.body);
  if (message) assert.match(body.error.message, message);
}

export function expectOk(res: LightMyRequestResponse, status = 200): any {
  assert.equal(res.statusCode, status, res.body);
  assert.equal(res.headers['cache-control'], 'private, no-store');
  return res.json();
}

/** Private people (a staff member, a resident, an organization representative) and testimony. */
export async function seedPrivatePeople(w: World) {
  const meetingId = w.seeded.meetings[0]!.id;
  const src = (id: string) => ({ source: 'test', source_id: id, source_url: null });
  const people = [
    { id: 'staff-1', name: 'Sam Staff', sort_name: 'Staff, Sam', kind: 'staff' as const, ...src('staff-1') },
    { id: 'resident-1', name: 'Rita Resident', sort_name: 'Resident, Rita', kind: 'resident' as const, ...src('resident-1') },
    { id: 'orgrep-1', name: 'Omar Org', sort_name: 'Org, Omar', kind: 'organization_rep' as const, organization: 'Block Club', ...src('orgrep-1') },
  ];
  await w.t.ctx.db.insertInto('people').values(people).execute();
  const testimony = (id: string, name: string, kind: 'staff' | 'resident' | 'organization_rep' | 'lobbyist', position: 'supports' | 'opposes') => ({
    id,
    meeting_id: meetingId,
    speaker_name: name,
    speaker_kind: kind,
    position,
    mode: 'in_person' as const,
    summary: `${name} spoke.`,
    ...src(id),
  });
  await w.t.ctx.db
    .insertInto('testimony')
    .values([
      testimony('t1', 'Sam Staff', 'staff', 'supports'),
      testimony('t2', 'Rita Resident', 'resident', 'opposes'),
      { ...testimony('t3', 'Omar Org', 'organization_rep', 'supports'), organization: 'Block Club' },
    ])
    .execute();
  return { meetingId };
}
