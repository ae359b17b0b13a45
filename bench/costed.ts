// A loaded measurement together with the CPU that named processes (by pid) and the benchmark
// database's PostgreSQL backends spent during its timed part (the warm-up is left out).
import { type Measurement, type MeasureOptions, measure, type Target } from './measure.ts';
import { type Backends, backendsSpent, cpuMs } from './proc.ts';

/** A loaded measurement with the CPU each named process and the database's backends spent in its timed part. */
export interface Costed {
  measurement: Measurement;
  processMs: Record<string, number | null>;
  postgresMs: number | null;
}

export async function measureCosted(target: Target, options: MeasureOptions, pids: Record<string, number>, backends: Backends): Promise<Costed> {
  const read = () => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  let before: { processes: Record<string, number | null>; postgres: Map<number, number> | null } = { processes: {}, postgres: null };
  console.log(`measuring ${target.name} for ${options.seconds} s (${options.connections} connections, ${options.warmupSeconds} s warm-up)`);
  const measurement = await measure(target, options, async () => {
    before = { postgres: await backends.snapshot(), processes: read() };
  });
  const processes = read();
  const postgres = await backends.snapshot();
  const processMs = Object.fromEntries(
    Object.entries(processes).map(([name, ms]) => [name, ms === null || before.processes[name] == null ? null : ms - before.processes[name]!]),
  );
  return { measurement, processMs, postgresMs: backendsSpent(before.postgres, postgres) };
}
