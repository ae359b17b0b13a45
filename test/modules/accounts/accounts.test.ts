import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AppError } from '../../../src/kernel/errors.ts';
import { operator } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { accountActor } from '../../helpers/actors.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

const accounts = () => t.ctx.services.accounts;
let n = 0;
const newAccount = (prefix = 'person') => accounts().create({ email: `${prefix}${++n}@example.org`, name: `${prefix} ${n}` });

/** Asserts the promise rejects with an AppError of this code. */
async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<void> {
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.code, code);
    if (message) assert.match(err.message, message);
    return true;
  });
}

describe('accounts', () => {
  test('an email is unique whatever its case, and lookups ignore case', async () => {
    const a = await accounts().create({ email: 'Case.Person@Example.org', name: 'Case' });
    assert.match(a.id, /^acc_/);
    await rejectsWith(accounts().create({ email: 'case.person@example.ORG' }), 'conflict');
    assert.equal((await accounts().findByEmail('CASE.PERSON@example.org'))?.id, a.id);
  });

  test('bad emails and names are 400', async () => {
    await rejectsWith(accounts().create({ email: 'not-an-email' }), 'invalid_request', /email/);
    await rejectsWith(accounts().create({ email: 'x@example.org', name: 'bad\u0007name' }), 'invalid_request', /control/);
  });

  test('limits default, are overridden by the operator only, and null returns to the default', async () => {
    const a = await newAccount();
    assert.deepEqual(a.limits, { requestsPerDay: 1000, requestsPerMinute: 60, aiAnswersPerDay: 50 });
    await rejectsWith(accounts().setLimits(accountActor(a.id), { accountId: a.id, limits: { requestsPerDay: 5 } }), 'forbidden');
    const changed = await accounts().setLimits(operator, { accountId: a.id, limits: { requestsPerDay: 20000, aiAnswersPerDay: 0 } });
    assert.deepEqual(changed.limits, { requestsPerDay: 20000, requestsPerMinute: 60, aiAnswersPerDay: 0 });
    const back = await accounts().setLimits(operator, { accountId: a.id, limits: { requestsPerDay: null } });
    assert.deepEqual(back.limits, { requestsPerDay: 1000, requestsPerMinute: 60, aiAnswersPerDay: 0 });
    await rejectsWith(accounts().setLimits(operator, { accountId: a.id, limits: { requestsPerMinute: -1 } }), 'invalid_request');
    await rejectsWith(accounts().setLimits(operator, { accountId: a.id, limits: { requestsPerMinute: 1.5 } }), 'invalid_request');
    await rejectsWith(accounts().setLimits(operator, { accountId: 'acc_missing', limits: { requestsPerMinute: 1 } }), 'not_found');
  });
});

describe('teams', () => {
  test('the operator creates a team with an owner and features; team limits default to the team values', async () => {
    const owner = await newAccount('owner');
    const team = await accounts().teams.create(operator, { name: 'Ward 1 Office', ownerAccountId: owner.id, features: ['people', 'offices'] });
    assert.match(team.id, /^team_/);
    assert.deepEqual(team.features, ['people', 'offices']);
    assert.deepEqual(team.limits, { requestsPerDay: 5000, requestsPerMinute: 120, aiAnswersPerDay: 200 });
    const shown = await accounts().teams.get(operator, team.id);
    assert.deepEqual(
      shown.members.map((m) => [m.email, m.role]),
      [[owner.email, 'owner']],
    );
    assert.deepEqual(
      (await accounts().memberships(owner.id)).map((m) => [m.teamId, m.role]),
      [[team.id, 'owner']],
    );
  });

  test('unknown features are 400; an account creates only its own team and without features', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    await rejectsWith(accounts().teams.create(operator, { name: 'T', ownerAccountId: owner.id, features: ['lasers'] }), 'invalid_request', /lasers/);
    await rejectsWith(accounts().teams.create(accountActor(other.id), { name: 'T', ownerAccountId: owner.id }), 'forbidden');
    await rejectsWith(accounts().teams.create(accountActor(owner.id), { name: 'T', ownerAccountId: owner.id, features: ['analytics'] }), 'forbidden');
    const own = await accounts().teams.create(accountActor(owner.id), { name: 'Own team', ownerAccountId: owner.id });
    assert.deepEqual(own.features, []);
  });

  test('features are switched on and off by the operator only', async () => {
    const owner = await newAccount();
    const team = await accounts().teams.create(operator, { name: 'T', ownerAccountId: owner.id, features: ['team_data'] });
    const on = await accounts().teams.setFeatures(operator, { teamId: team.id, enable: ['advocacy', 'team_data'], disable: [] });
    assert.deepEqual(on.features, ['team_data', 'advocacy']);
    const off = await accounts().teams.setFeatures(operator, { teamId: team.id, disable: ['team_data'] });
    assert.deepEqual(off.features, ['advocacy']);
    await rejectsWith(accounts().teams.setFeatures(accountActor(owner.id), { teamId: team.id, enable: ['offices'] }), 'forbidden');
    await rejectsWith(accounts().teams.setFeatures(operator, { teamId: team.id, enable: ['people'], disable: ['people'] }), 'invalid_request');
    await rejectsWith(accounts().teams.setFeatures(operator, { teamId: 'team_missing', enable: ['people'] }), 'not_found');
  });

  test('team limits are the operator’s to change', async () => {
    const owner = await newAccount();
    const team = await accounts().teams.create(operator, { name: 'T', ownerAccountId: owner.id });
    const changed = await accounts().teams.setLimits(operator, { teamId: team.id, limits: { requestsPerMinute: 600 } });
    assert.equal(changed.limits.requestsPerMinute, 600);
    assert.equal(changed.limitOverrides.requestsPerDay, null);
    await rejectsWith(accounts().teams.setLimits(accountActor(owner.id), { teamId: team.id, limits: { requestsPerMinute: 1 } }), 'forbidden');
  });
});

describe('memberships and roles', () => {
  async function teamWith() {
    const owner = await newAccount('owner');
    const admin = await newAccount('admin');
    const member = await newAccount('member');
    const outsider = await newAccount('outsider');
    const team = await accounts().teams.create(operator, { name: 'T', ownerAccountId: owner.id });
    await accounts().members.add(operator, { teamId: team.id, accountId: admin.id, role: 'admin' });
    await accounts().members.add(accountActor(owner.id), { teamId: team.id, accountId: member.id, role: 'member' });
    return { owner, admin, member, outsider, team };
  }

  test('owners and admins manage members; members and outsiders cannot', async () => {
    const { admin, member, outsider, team } = await teamWith();
    const newcomer = await newAccount();
    await rejectsWith(accounts().members.add(accountActor(member.id), { teamId: team.id, accountId: newcomer.id, role: 'member' }), 'forbidden');
    // To an outsider the team does not exist.
    await rejectsWith(accounts().members.add(accountActor(outsider.id), { teamId: team.id, accountId: newcomer.id, role: 'member' }), 'not_found');
    await rejectsWith(accounts().teams.get(accountActor(outsider.id), team.id), 'not_found');
    const list = await accounts().members.add(accountActor(admin.id), { teamId: team.id, accountId: newcomer.id, role: 'admin' });
    assert.equal(list.find((m) => m.accountId === newcomer.id)?.role, 'admin');
    await rejectsWith(accounts().members.add(operator, { teamId: team.id, accountId: newcomer.id, role: 'member' }), 'conflict');
    await rejectsWith(accounts().members.add(operator, { teamId: team.id, accountId: outsider.id, role: 'boss' }), 'invalid_request', /role/);
  });

  test('admins neither make nor unmake owners', async () => {
    const { owner, admin, member, team } = await teamWith();
    await rejectsWith(accounts().members.setRole(accountActor(admin.id), { teamId: team.id, accountId: member.id, role: 'owner' }), 'forbidden');
    await rejectsWith(accounts().members.setRole(accountActor(admin.id), { teamId: team.id, accountId: owner.id, role: 'member' }), 'forbidden');
    await rejectsWith(accounts().members.remove(accountActor(admin.id), { teamId: team.id, accountId: owner.id }), 'forbidden');
    const list = await accounts().members.setRole(accountActor(admin.id), { teamId: team.id, accountId: member.id, role: 'admin' });
    assert.equal(list.find((m) => m.accountId === member.id)?.role, 'admin');
  });

  test('a team keeps at least one owner, and a refused change leaves nothing behind', async () => {
    const { owner, admin, team } = await teamWith();
    await rejectsWith(accounts().members.setRole(operator, { teamId: team.id, accountId: owner.id, role: 'admin' }), 'invalid_request', /owner/);
    await rejectsWith(accounts().members.remove(operator, { teamId: team.id, accountId: owner.id }), 'invalid_request', /owner/);
    assert.equal(await accounts().members.roleOf(team.id, owner.id), 'owner');
    await accounts().members.setRole(accountActor(owner.id), { teamId: team.id, accountId: admin.id, role: 'owner' });
    await accounts().members.setRole(accountActor(admin.id), { teamId: team.id, accountId: owner.id, role: 'member' });
    assert.equal(await accounts().members.roleOf(team.id, owner.id), 'member');
  });

  test('anyone may leave a team; removing a non-member is not_found', async () => {
    const { member, outsider, team } = await teamWith();
    await accounts().members.remove(accountActor(member.id), { teamId: team.id, accountId: member.id });
    assert.equal(await accounts().members.roleOf(team.id, member.id), null);
    await rejectsWith(accounts().members.remove(operator, { teamId: team.id, accountId: outsider.id }), 'not_found');
    await rejectsWith(accounts().members.setRole(operator, { teamId: team.id, accountId: 'acc_missing', role: 'member' }), 'not_found');
  });
});
