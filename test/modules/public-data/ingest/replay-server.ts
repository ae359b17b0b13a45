// A local node:http server that replays recorded upstream responses from test/fixtures, the way
// the live source would: a URL path maps to <dir><path>.json (or the file itself for CSV/TSV),
// lists are served in pages of at most `maxPage` rows (top/skip, $top/$skip, $limit/$offset),
// and tests can queue failures (429/503 with Retry-After), hold a request, and read the request log.
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';

export const FIXTURES = new URL('../../../fixtures/', import.meta.url).pathname;

export interface Replay {
  url: string;
  requests: URL[];
  /** Failures to answer before the real response, per path: e.g. { status: 429, retryAfter: '1' }. */
  fail(path: string, ...answers: Array<{ status: number; retryAfter?: string }>): void;
  /** Replace a recorded body (JSON) for later requests. */
  override(path: string, body: unknown): void;
  /** Hold the next request of `path` unanswered: `reached` once it arrives, answered after `release()`. */
  hold(path: string): { reached: Promise<void>; release(): void };
  close(): Promise<void>;
}

export interface ReplayOptions {
  maxPage?: number;
  /** Maps a request to a fixture path when the URL path alone does not name it. */
  rewrite?: (url: URL) => string;
}

function page<T>(rows: T[], url: URL, maxPage: number): { rows: T[]; skip: number } {
  const q = url.searchParams;
  // Endpoints called without paging parameters answer whole, as the sources do.
  if (!['top', '$top', '$limit', 'skip', '$skip', '$offset'].some((k) => q.has(k))) return { rows, skip: 0 };
  const top = Number(q.get('top') ?? q.get('$top') ?? q.get('$limit') ?? rows.length);
  const skip = Number(q.get('skip') ?? q.get('$skip') ?? q.get('$offset') ?? 0);
  return { rows: rows.slice(skip, skip + Math.min(top, maxPage)), skip };
}

export async function startReplay(dir: string, options: ReplayOptions = {}): Promise<Replay> {
  const maxPage = options.maxPage ?? 1000;
  const requests: URL[] = [];
  const failures = new Map<string, Array<{ status: number; retryAfter?: string }>>();
  const overrides = new Map<string, unknown>();
  const holds = new Map<string, { arrived(): void; released: Promise<void> }>();
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://replay.local');
    requests.push(url);
    const path = options.rewrite ? options.rewrite(url) : decodeURIComponent(url.pathname);
    const held = holds.get(path);
    if (held) {
      holds.delete(path);
      held.arrived();
      await held.released;
    }
    const queued = failures.get(path)?.shift();
    if (queued) {
      res.writeHead(queued.status, queued.retryAfter !== undefined ? { 'retry-after': queued.retryAfter } : {});
      res.end('try again');
      return;
    }
    if (/\.(csv|tsv)$/.test(path)) {
      const file = join(dir, path);
      if (!existsSync(file)) return void res.writeHead(404).end();
      const text = readFileSync(file, 'utf8');
      const records = parse(text, {
        raw: true,
        skip_empty_lines: true,
        delimiter: path.endsWith('.tsv') ? '\t' : ',',
        quote: path.endsWith('.tsv') ? false : '"',
      }) as unknown as Array<{ raw: string }>;
      const [header, ...rows] = records.map((r) => r.raw.replace(/\r?\n$/, ''));
      const { rows: slice } = page(rows, url, maxPage);
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end([header, ...slice].join('\n') + '\n');
      return;
    }
    let body: any = overrides.get(path);
    if (body === undefined) {
      const file = join(dir, `${path}.json`);
      if (!existsSync(file)) return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
      body = JSON.parse(readFileSync(file, 'utf8'));
    }
    if (Array.isArray(body)) body = page(body, url, maxPage).rows;
    else if (body && Array.isArray(body.data)) {
      const { rows, skip } = page(body.data, url, maxPage);
      body = { ...body, meta: { ...body.meta, skip, top: rows.length, count: body.data.length }, data: rows };
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    fail(path, ...answers) {
      failures.set(path, [...(failures.get(path) ?? []), ...answers]);
    },
    override(path, body) {
      overrides.set(path, body);
    },
    hold(path) {
      const reached = Promise.withResolvers<void>();
      const released = Promise.withResolvers<void>();
      holds.set(path, { arrived: reached.resolve, released: released.promise });
      return { reached: reached.promise, release: released.resolve };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Fast retries for tests: the pacing and backoff are exercised, not waited out. */
export const FAST = { minIntervalMs: 0, baseDelayMs: 5, maxDelayMs: 1500, timeoutMs: 5000 };

/**
 * A cron expression naming one minute of the year: the first whole minute at least `leadSeconds`
 * ahead, or (with no lead) the current one while half of it remains. An occurrence stays due for
 * 60 s and passes run every 10 s, so whatever starts the instances has the lead plus up to a
 * minute to have them running a pass, or the occurrence is missed for a year: a deployment of
 * separate processes, slow to start under the whole suite, takes a lead.
 */
export function onceAt(now = new Date(), leadSeconds = 0): { cron: string; at: Date } {
  const earliest = new Date(now.getTime() + leadSeconds * 1000);
  const at = new Date(earliest);
  at.setUTCSeconds(0, 0);
  if (leadSeconds > 0 ? at < earliest : now.getUTCSeconds() > 30) at.setUTCMinutes(at.getUTCMinutes() + 1);
  return { cron: `${at.getUTCMinutes()} ${at.getUTCHours()} ${at.getUTCDate()} ${at.getUTCMonth() + 1} *`, at };
}
