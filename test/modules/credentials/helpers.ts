// Shared set-up of the credentials tests: accounts and a team made through the services.
import assert from 'node:assert/strict';
import { AppError } from '../../../src/kernel/errors.ts';
import { operator } from '../../../src/kernel/actor.ts';
import type { TestContext } from '../../helpers/context.ts';

export async function rejectsWith(p: Promise<unknown>, code: string, message?: RegExp): Promise<AppError> {
  let caught: AppError | null = null;
  await assert.rejects(p, (err: unknown) => {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`);
    assert.equal(err.code, code, err.message);
    if (message) assert.match(err.message, message);
    caught = err;
    return true;
  });
  return caught!;
}

let n = 0;

/** A team with an owner, an admin and a member (all fresh accounts). */
export async function makeTeam(t: TestContext, features: string[] = ['team_data', 'people']) {
  const { accounts } = t.ctx.services;
  const tag = `${process.pid}-${++n}`;
  const owner = await accounts.create({ email: `owner-${tag}@example.org`, name: 'Owner' });
  const admin = await accounts.create({ email: `admin-${tag}@example.org`, name: 'Admin' });
  const member = await accounts.create({ email: `member-${tag}@example.org`, name: 'Member' });
  const team = await accounts.teams.create(operator, { name: `Team ${tag}`, ownerAccountId: owner.id, features });
  await accounts.members.add(operator, { teamId: team.id, accountId: admin.id, role: 'admin' });
  await accounts.members.add(operator, { teamId: team.id, accountId: member.id, role: 'member' });
  return { owner, admin, member, team };
}

export async function makeAccount(t: TestContext) {
  return t.ctx.services.accounts.create({ email: `solo-${process.pid}-${++n}@example.org` });
}
