// The agent-tasks module keeps the A2A agent's tasks per owner and deletes those untouched for a
// week (the hourly job), leaving newer ones and every other owner's newer tasks alone.
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { type Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { ManualClock } from '../../../src/kernel/clock.ts';
import { TASK_RETENTION_MS } from '../../../src/modules/agent-tasks/index.ts';
import { startTestContext } from '../../helpers/context.ts';

const clock = new ManualClock('2026-03-01T12:00:00Z');
const t = await startTestContext({ clock });
after(async () => {
  await t.close();
});

const OWNER = 'owner';
const store = t.ctx.services.agentTasks.store((context) => String(context.state.get(OWNER)));
const as = (owner: string) => new ServerCallContext({ state: new Map([[OWNER, owner]]) });

function task(id: string, at: Date): Task {
  return {
    id,
    contextId: crypto.randomUUID(),
    status: { state: TaskState.TASK_STATE_COMPLETED, timestamp: at.toISOString(), message: undefined },
    artifacts: [],
    history: [],
    metadata: undefined,
  };
}

test('a task is found only by its owner', async () => {
  const id = crypto.randomUUID();
  await store.save(task(id, clock.now()), as('account:a'));
  assert.equal((await store.load(id, as('account:a')))?.id, id);
  assert.equal(await store.load(id, as('team:b')), undefined);
});

test('prune deletes the tasks untouched for a week, and only those', async () => {
  const now = clock.now().getTime();
  const old = [crypto.randomUUID(), crypto.randomUUID()];
  const fresh = crypto.randomUUID();
  await store.save(task(old[0]!, new Date(now - TASK_RETENTION_MS - 1000)), as('account:a'));
  await store.save(task(old[1]!, new Date(now - TASK_RETENTION_MS - 60_000)), as('team:b'));
  await store.save(task(fresh, new Date(now - TASK_RETENTION_MS + 60_000)), as('team:b'));
  const before = await t.ctx.db.selectFrom('a2a_tasks').select('id').execute();
  const { deleted } = await t.ctx.services.agentTasks.prune();
  assert.equal(deleted, 2);
  const left = (await t.ctx.db.selectFrom('a2a_tasks').select('id').execute()).map((r) => r.id);
  assert.equal(left.length, before.length - 2);
  assert.ok(left.includes(fresh));
  for (const id of old) assert.ok(!left.includes(id), id);
  assert.deepEqual(await t.ctx.services.agentTasks.prune(), { deleted: 0 });
});
