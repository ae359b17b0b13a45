// The A2A agent's tasks (surfaces/a2a): a question asked of the agent is a task, kept in the
// database so any instance can answer GetTask, and only to the owner that asked. What the surface
// may use: the task store the SDK's request handler takes, and the hourly deletion of tasks
// untouched for a week, on the job queue (kernel/jobs.ts). Table: a2a_tasks (migration 0083).
import type { OwnerResolver, TaskStore } from '@a2a-js/sdk/server';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { defineJob, type Jobs } from '../../kernel/jobs.ts';
import { deleteTasksUpdatedBefore, taskStore } from './repo.ts';

/** Tasks untouched this long are deleted: an answer is worth fetching again for a week. */
export const TASK_RETENTION_MS = 7 * 24 * 3600 * 1000;
const PRUNE_CRON = '23 * * * *';
/** Tasks deleted per statement: short transactions, however many piled up. */
const BATCH = 500;

const pruneKind = defineJob<{ reason: string }>('agent-tasks.prune', { policy: 'stately', retry: { limit: 3, delaySeconds: 60, backoff: true } });

export interface AgentTasks {
  /** The store of tasks, scoped by `owner` (the credential's account or team). */
  store(owner: OwnerResolver): TaskStore;
  /** Deletes the tasks untouched for TASK_RETENTION_MS; how many went. */
  prune(): Promise<{ deleted: number }>;
  /** Schedules prune() hourly (the running service only). */
  start(): Promise<void>;
}

export function createAgentTasks(deps: Pick<ModuleDeps, 'db' | 'clock'>, others: { jobs: Pick<Jobs, 'work' | 'schedule'> }): AgentTasks {
  const { db, clock } = deps;
  async function prune(): Promise<{ deleted: number }> {
    const before = clock.now().getTime() - TASK_RETENTION_MS;
    let deleted = 0;
    for (;;) {
      const n = await deleteTasksUpdatedBefore(db, before, BATCH);
      deleted += n;
      if (n < BATCH) return { deleted };
    }
  }
  return {
    store: (owner) => taskStore(db, owner),
    prune,
    async start() {
      await others.jobs.work(pruneKind, () => prune());
      await others.jobs.schedule(pruneKind, 'hourly', PRUNE_CRON, { reason: 'schedule' }, { singletonKey: 'agent-tasks' });
    },
  };
}
