// The benchmark's output: a table for people, then one JSON line (always the last line) for tools.
import type { Measurement } from './measure.ts';

export interface RouteFigures extends Measurement {
  /** Throughput as a share of the ceiling's. */
  ratio: number;
}

export interface Report {
  routes: RouteFigures[];
  /** p50 of the authenticated detail route minus p50 of the same route without the guard, ms. */
  authOverheadP50: number;
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
  const header = ['route', 'req/s', 'p50 ms', 'p99 ms', 'of ceiling'];
  const rows = r.routes.map((m) => [m.name, m.rps.toFixed(0), m.p50.toFixed(2), m.p99.toFixed(2), `${(m.ratio * 100).toFixed(1)} %`]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  console.log('');
  console.log(line(header));
  for (const row of rows) console.log(line(row));
  console.log('');
  console.log(`authentication and counting: ${r.authOverheadP50 >= 0 ? '+' : ''}${r.authOverheadP50.toFixed(2)} ms at p50 (detail route with vs without the guard)`);
  console.log(`peak RSS of the service: ${(r.peakRssBytes / 2 ** 20).toFixed(0)} MiB`);
  for (const [aim, met] of Object.entries(r.aims)) console.log(`aim ${aim}: ${met ? 'met' : 'MISSED'}`);
  for (const m of r.routes) {
    if (m.non2xx > 0 || m.errors > 0 || m.timeouts > 0) {
      console.log(`FAILED ${m.name}: ${m.non2xx} non-2xx ${JSON.stringify(m.statuses)}, ${m.errors} errors, ${m.timeouts} timeouts`);
    }
  }
  const json = {
    ok: r.failed.length === 0,
    routes: r.routes.map((m) => ({
      name: m.name,
      requests: m.requests,
      rps: round(m.rps, 1),
      p50Ms: round(m.p50, 3),
      p99Ms: round(m.p99, 3),
      ratioToCeiling: round(m.ratio, 4),
      non2xx: m.non2xx,
      statuses: m.statuses,
      errors: m.errors,
      timeouts: m.timeouts,
    })),
    authOverheadP50Ms: round(r.authOverheadP50, 3),
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
