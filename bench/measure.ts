// One measurement: autocannon against one target for a fixed time after a warm-up. Latencies
// are taken from every response with full precision (autocannon's own histogram has a 1 ms
// resolution, too coarse for a difference of a fraction of a millisecond).
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface Target {
  name: string;
  /** Base URL of the server (loopback). */
  url: string;
  /** Paths requested in turn, so the database sees many rows rather than one hot one. */
  paths: string[];
  headers?: Record<string, string>;
  /** POST these JSON bodies in turn (with `paths[0]`) instead of GETting the paths. */
  bodies?: string[];
  /**
   * Headers sent in rotation, one set per request (many callers: a key each), added to `headers`;
   * `answered[i]` counts the 2xx answers to requests sent with set i.
   */
  rotate?: { headers: Record<string, string>[]; answered: number[] };
  /** Send every request with an `Idempotency-Key` of its own: each write is a new effect, never a replay. */
  idempotent?: boolean;
  /**
   * Ask every path (or POST every body) twice before the target is first measured, four at a time:
   * its answers are then in memory, as a busy service holds them, whichever target is measured
   * first. A warm-up of a few seconds at one connection reached only part of 2,000 records on a
   * slower machine.
   */
  prime?: boolean;
}

export interface MeasureOptions {
  seconds: number;
  warmupSeconds: number;
  connections: number;
}

export interface Measurement {
  name: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  /** Responses that were not 2xx, by status; any makes the run fail. */
  statuses: Record<string, number>;
  non2xx: number;
  errors: number;
  timeouts: number;
}

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

function shuffled<T>(list: readonly T[]): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function load(target: Target, seconds: number, connections: number, onResponse?: (status: number, ms: number) => void) {
  const paths = shuffled(target.paths);
  const bodies = target.bodies ? shuffled(target.bodies) : null;
  const rotate = target.rotate;
  let next = 0;
  let turn = 0;
  const instance = autocannon({
    url: target.url,
    connections,
    duration: seconds,
    headers: { ...(target.headers ?? {}), ...(bodies ? { 'content-type': 'application/json' } : {}) },
    // A response slower than this is a timeout: reported, and the run fails.
    timeout: 10,
    requests: [
      {
        setupRequest: (request: Record<string, unknown>, context: { set?: number }) => {
          const sent: Record<string, unknown> = bodies
            ? { ...request, method: 'POST', path: paths[0], body: bodies[next++ % bodies.length] }
            : { ...request, path: paths[next++ % paths.length] };
          const built = target.idempotent ? { ...sent, headers: { ...(sent.headers as Record<string, string>), 'idempotency-key': randomUUID() } } : sent;
          if (!rotate) return built;
          // One connection sends one request at a time, so its context names the set of the request in flight.
          context.set = turn++ % rotate.headers.length;
          return { ...built, headers: { ...(built.headers as Record<string, string>), ...rotate.headers[context.set] } };
        },
        ...(rotate
          ? {
              onResponse: (status: number, _body: unknown, context: { set?: number }) => {
                if (status >= 200 && status < 300 && context.set !== undefined) rotate.answered[context.set]! += 1;
              },
            }
          : {}),
      },
    ],
  });
  if (onResponse) {
    instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => onResponse(status, ms));
  }
  return instance;
}

const primed = new Set<string>();

export async function prime(target: Target): Promise<void> {
  const at = `${target.url} ${JSON.stringify(target.headers ?? {})}${target.bodies ? ` POST ${target.paths[0]} ${target.bodies.length}` : ''}`;
  if (primed.has(at)) return;
  primed.add(at);
  // Every path twice: past a sixteenth of their bound, the kept answers keep a new answer at its
  // second request (kernel/coherence.ts ANSWERS_ADMISSION).
  const asks = target.bodies
    ? target.bodies.map((body) => ({
        path: target.paths[0]!,
        init: { method: 'POST', body, headers: { ...target.headers, 'content-type': 'application/json' } },
      }))
    : target.paths.map((path) => ({ path, init: { headers: target.headers ?? {} } }));
  for (const _ of [1, 2]) {
    for (let i = 0; i < asks.length; i += 4) {
      await Promise.all(
        asks.slice(i, i + 4).map(async ({ path, init }) => {
          const res = await fetch(`${target.url}${path}`, { ...init, signal: AbortSignal.timeout(30_000) });
          await res.arrayBuffer();
          if (res.status < 200 || res.status >= 300) throw new Error(`priming ${target.name} ${path}: ${res.status}`);
        }),
      );
    }
  }
}

/** `timed` runs after the warm-up, right before the timed load starts (e.g. to read CPU counters). */
export async function measure(target: Target, options: MeasureOptions, timed?: () => Promise<void>): Promise<Measurement> {
  if (target.prime) await prime(target);
  if (options.warmupSeconds > 0) await load(target, options.warmupSeconds, options.connections);
  await timed?.();
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const result = await load(target, options.seconds, options.connections, (status, ms) => {
    if (status >= 200 && status < 300) latencies.push(ms);
    else statuses[status] = (statuses[status] ?? 0) + 1;
  });
  const sorted = Float64Array.from(latencies).sort();
  const elapsed = (new Date(result.finish).getTime() - new Date(result.start).getTime()) / 1000;
  return {
    name: target.name,
    requests: latencies.length,
    rps: latencies.length / elapsed,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    statuses,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
