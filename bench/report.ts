// The benchmark's output: a table for people, then one JSON line (always the last line) for tools.
import type { Measurement } from './measure.ts';

/** One route in both passes: `latency` with one connection, `load` with many. */
export interface RouteFigures {
  name: string;
  latency: Measurement;
  load: Measurement;
  /** Throughput under load as a share of the ceiling's. */
  ratio: number;
}

export interface Report {
  routes: RouteFigures[];
  /** p50 of the authenticated detail route minus p50 of the same route without the guard, ms (not measured with BENCH_ONLY). */
  authOverheadP50?: number;
  /** p50 of the MCP tools/call of the matter detail minus p50 of the REST detail route, ms (not measured with BENCH_ONLY=guard or search). */
  mcpOverheadP50?: number;
  /** Further lines printed after the table (BENCH_ONLY=capacity: the costs and the model). */
  lines?: string[];
  /** BENCH_ONLY=capacity: CPU per request, the capacity model, one instance vs two, memory per instance. */
  capacity?: Record<string, unknown>;
  aims: Record<string, boolean>;
  peakRssBytes: number;
  failed: string[];
  settings: Record<string, unknown>;
  machine: Record<string, unknown>;
  generation: { reused: boolean; seconds: number };
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;

/** Prints the report and returns the exit code: 1 when any route answered other than 2xx. */
export function report(r: Report): number {
  const header = ['route', 'p50 ms', 'p99 ms', 'req/s loaded', 'p50 loaded', 'p99 loaded', 'of ceiling'];
  const rows = r.routes.map((m) => [
    m.name,
    m.latency.p50.toFixed(2),
    m.latency.p99.toFixed(2),
    m.load.rps.toFixed(0),
    m.load.p50.toFixed(2),
    m.load.p99.toFixed(2),
    `${(m.ratio * 100).toFixed(1)} %`,
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log('');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log('p50/p99: one connection at a time (the latency a caller sees); loaded: the throughput pass.');
  if (r.authOverheadP50 !== undefined) {
    console.log(
      `authentication and counting: ${r.authOverheadP50 >= 0 ? '+' : ''}${r.authOverheadP50.toFixed(2)} ms at p50 (detail route with vs without the guard)`,
    );
  }
  if (r.mcpOverheadP50 !== undefined) {
    console.log(`MCP tools/call of the matter detail: ${r.mcpOverheadP50 >= 0 ? '+' : ''}${r.mcpOverheadP50.toFixed(2)} ms at p50 (vs the REST detail route)`);
  }
  for (const l of r.lines ?? []) console.log(l);
  console.log(`peak RSS of the service: ${(r.peakRssBytes / 2 ** 20).toFixed(0)} MiB`);
  for (const [aim, met] of Object.entries(r.aims)) console.log(`aim ${aim}: ${met ? 'met' : 'MISSED'}`);
  for (const m of r.routes.flatMap((f) => [f.latency, f.load])) {
    if (m.non2xx > 0 || m.errors > 0 || m.timeouts > 0) {
      console.log(`FAILED ${m.name}: ${m.non2xx} non-2xx ${JSON.stringify(m.statuses)}, ${m.errors} errors, ${m.timeouts} timeouts`);
    }
  }
  const json = {
    ok: r.failed.length === 0,
    routes: r.routes.map((m) => ({
      name: m.name,
      p50Ms: round(m.latency.p50, 3),
      p99Ms: round(m.latency.p99, 3),
      rps: round(m.load.rps, 1),
      loadedP50Ms: round(m.load.p50, 3),
      loadedP99Ms: round(m.load.p99, 3),
      ratioToCeiling: round(m.ratio, 4),
      requests: m.latency.requests + m.load.requests,
      non2xx: m.latency.non2xx + m.load.non2xx,
      errors: m.latency.errors + m.load.errors,
      timeouts: m.latency.timeouts + m.load.timeouts,
    })),
    ...(r.authOverheadP50 === undefined ? {} : { authOverheadP50Ms: round(r.authOverheadP50, 3) }),
    ...(r.mcpOverheadP50 === undefined ? {} : { mcpOverheadP50Ms: round(r.mcpOverheadP50, 3) }),
    ...(r.capacity ? { capacity: r.capacity } : {}),
    peakRssBytes: r.peakRssBytes,
    aims: r.aims,
    failed: r.failed,
    settings: r.settings,
    machine: r.machine,
    generation: { reused: r.generation.reused, seconds: round(r.generation.seconds, 1) },
  };
  console.log(JSON.stringify(json));
  return r.failed.length === 0 ? 0 : 1;
}
