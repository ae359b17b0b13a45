// What Linux counts for a process, read from /proc: CPU time (every thread of it: for Node the
// event loop, the garbage collector's and libuv's threads) and resident memory. The PostgreSQL
// backends serving the benchmark's database are found by their pid in pg_stat_activity, so the
// other databases of a shared server are not counted; the server's own processes (WAL writer,
// checkpointer) serve every database and are left out.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';

const ticksPerSecond = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime of a process so far, in ms (10 ms resolution); null when it is gone or not on this machine. */
export function cpuMs(pid: number): number | null {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces; after it come field 3 (state)
  // onwards, so utime (field 14) and stime (field 15) are the 12th and 13th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Resident set now (VmRSS) and at its peak (VmHWM), bytes; zeros when the process is gone. */
export function residentBytes(pid: number): { rss: number; hwm: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return { rss: 0, hwm: 0 };
  }
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), hwm: kb('VmHWM') };
}

/** The CPU of a database's PostgreSQL backends, read through one connection of its own (left out). */
export interface Backends {
  /** CPU ms so far per backend pid; null when the server's processes are not on this machine. */
  snapshot(): Promise<Map<number, number> | null>;
  close(): Promise<void>;
}

export async function databaseBackends(databaseUrl: string): Promise<Backends> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  return {
    async snapshot() {
      const { rows } = await client.query<{ pid: number }>(
        "select pid from pg_stat_activity where datname = current_database() and backend_type = 'client backend' and pid <> pg_backend_pid()",
      );
      const cpu = new Map<number, number>();
      for (const { pid } of rows) {
        const ms = cpuMs(pid);
        if (ms === null) return null;
        cpu.set(pid, ms);
      }
      return cpu;
    },
    close: () => client.end(),
  };
}

/**
 * CPU ms spent between two snapshots: a backend that started in between counts all of its time; one
 * that ended in between is lost (the service's pool keeps its connections while it is busy).
 */
export function backendsSpent(before: Map<number, number> | null, after: Map<number, number> | null): number | null {
  if (!before || !after) return null;
  let ms = 0;
  for (const [pid, now] of after) ms += now - (before.get(pid) ?? 0);
  return ms;
}
