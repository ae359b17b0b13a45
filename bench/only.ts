// BENCH_ONLY=guard or BENCH_ONLY=search: a part of the benchmark's targets (the ceiling first),
// each at one connection and then loaded, in one run, with the same report and JSON line as the
// full benchmark and the aims that part can decide. For trying a change quickly; the figures of
// record come from the full run.
import { cpus } from 'node:os';
import type { Generated } from './generate.ts';
import { type Measurement, type MeasureOptions, measure, type Target } from './measure.ts';
import { report } from './report.ts';
import { type Child, heapSnapshot } from './servers.ts';

export interface Subset {
  name: string;
  /** The ceiling first: every ratio is to it. */
  targets: Array<{ target: Target; expect: (body: any) => boolean }>;
  options: MeasureOptions;
  check(target: Target, expect: (body: any) => boolean): Promise<void>;
  children: Child[];
  service: Child;
  generated: Generated;
  /** The aims this part decides, from both passes (by target name). */
  aims(latency: (name: string) => Measurement, load: (name: string) => Measurement): Record<string, boolean>;
  /** Run after the passes: figures to add to the settings (e.g. the count check). */
  after?(latency: (name: string) => Measurement, load: (name: string) => Measurement): Promise<Record<string, unknown>>;
}

export async function measureSubset(s: Subset): Promise<number> {
  for (const t of s.targets) await s.check(t.target, t.expect);
  const pass = async (connections: number): Promise<Measurement[]> => {
    const results: Measurement[] = [];
    for (const { target } of s.targets) {
      console.log(`measuring ${target.name} for ${s.options.seconds} s (${connections} connections, ${s.options.warmupSeconds} s warm-up)`);
      results.push(await measure(target, { ...s.options, connections }));
      for (const child of s.children) if (!child.alive()) throw new Error(`${child.name} died during the run`);
    }
    return results;
  };
  const latency = await pass(1);
  const load = await pass(s.options.connections);
  const byName = (list: Measurement[]) => (name: string) => list.find((m) => m.name === name)!;
  const extra = (await s.after?.(byName(latency), byName(load))) ?? {};
  // Before the breakdown and the snapshot (which has V8 walk the whole heap).
  const peakRssBytes = s.service.peakRss();
  const serviceMemory = await s.service.memory();
  const snapshot = await heapSnapshot(s.service);
  if (snapshot) console.log(`heap snapshot of the service: ${snapshot}`);
  const failed = [...latency, ...load].filter((m) => m.non2xx > 0 || m.errors > 0 || m.timeouts > 0).map((m) => m.name);
  return report({
    routes: latency.map((m, i) => ({ name: m.name, latency: m, load: load[i]!, ratio: load[i]!.rps / load[0]!.rps })),
    aims: s.aims(byName(latency), byName(load)),
    peakRssBytes,
    failed: [...new Set(failed)],
    settings: { ...s.options, latencyConnections: 1, only: s.name, ...extra, serviceMemory },
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model ?? 'unknown', node: process.version },
    generation: { reused: s.generated.reused, seconds: s.generated.seconds },
  });
}
