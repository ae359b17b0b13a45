// Kysely types of the agent-tasks module's table (migration 0083), in the layout @a2a-js/sdk's
// DatabaseTaskStore reads and writes.
export interface A2aTasksTable {
  tenant: string;
  owner: string;
  id: string;
  context_id: string;
  /** Milliseconds since the epoch (bigint: a string from PostgreSQL's driver, a number from PGlite). */
  status_last_updated: number | string;
  status_state: string | null;
  status: string | null;
  artifacts: string | null;
  history: string | null;
  metadata: string | null;
  protocol_version: string | null;
}

export interface AgentTaskTables {
  a2a_tasks: A2aTasksTable;
}
