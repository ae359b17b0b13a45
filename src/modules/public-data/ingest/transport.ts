// Where an adapter's responses come from: the live source over HTTP, or a directory of recorded
// responses (`council ingest <source> --from PATH`). Both answer the same calls, so an adapter
// has one code path; the recorded directory mirrors the source's URL paths:
//   /matter            → PATH/matter.json        /matter/{id} → PATH/matter/{id}.json
//   /v1/chicago/Bodies → PATH/v1/chicago/Bodies.json, a CSV export → PATH/<its file name>
// A recorded list (a JSON array, or an object with a `data` array) is served in pages when the
// call carries top/skip ($top/$skip), as the live API would.
import { existsSync, readFileSync } from 'node:fs';
import { resolve, sep } from 'node:path';
import { AppError } from '../../../kernel/errors.ts';
import { createHttpClient, type HttpClientOptions, UpstreamError } from './http-client.ts';

export type Query = Record<string, string | number | undefined>;

export interface Transport {
  /** The parsed JSON, or null when the source has no such record (404 / no recorded file). */
  json<T>(path: string, query?: Query): Promise<T | null>;
  /** A text body (CSV), or null when absent. */
  text(path: string, query?: Query): Promise<string | null>;
  /** The public URL of a path on the live source, kept as each record's provenance. */
  url(path: string, query?: Query): string;
  readonly recorded: boolean;
  readonly requestCount: number;
}

export interface TransportOptions extends HttpClientOptions {
  /** The live source's base URL (kept for provenance even when reading recorded files). */
  baseUrl: string;
  /** A directory of recorded responses to read instead of the network. */
  from?: string | undefined;
}

function withQuery(base: string, path: string, query: Query = {}): string {
  const url = new URL(base.replace(/\/+$/, '') + path);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, String(v));
  return url.toString();
}

export function createTransport(options: TransportOptions): Transport {
  return options.from ? recordedTransport(options.from, options.baseUrl, options.signal) : httpTransport(options);
}

function httpTransport(options: TransportOptions): Transport {
  const client = createHttpClient(options);
  const notFound = (err: unknown) => {
    if (err instanceof UpstreamError && err.status === 404) return null;
    throw err;
  };
  return {
    recorded: false,
    url: (path, query) => withQuery(options.baseUrl, path, query),
    json: <T>(path: string, query?: Query) => client.getJson<T>(withQuery(options.baseUrl, path, query)).catch(notFound),
    text: (path, query) => client.getText(withQuery(options.baseUrl, path, query)).catch(notFound),
    get requestCount() {
      return client.requestCount;
    },
  };
}

function pageOf(body: unknown, query: Query): unknown {
  const top = Number(query.top ?? query.$top ?? query.$limit ?? Number.NaN);
  const skip = Number(query.skip ?? query.$skip ?? query.$offset ?? 0);
  if (!Number.isFinite(top)) return body;
  if (Array.isArray(body)) return body.slice(skip, skip + top);
  const list = body as { data?: unknown; meta?: Record<string, unknown> };
  if (list && Array.isArray(list.data)) {
    const count = list.data.length;
    return {
      ...list,
      meta: { ...list.meta, skip, top, count, pages: Math.ceil(count / top) },
      data: list.data.slice(skip, skip + top),
    };
  }
  return body;
}

function recordedTransport(dir: string, baseUrl: string, signal?: AbortSignal): Transport {
  const root = resolve(dir);
  if (!existsSync(root)) throw new AppError('invalid_request', `--from: no such directory: ${dir}`);
  const cache = new Map<string, unknown>();
  let requestCount = 0;
  const file = (path: string): string | null => {
    const target = resolve(root, `.${decodeURIComponent(path)}`);
    // A path is built from ids inside the recorded files; it must not leave the directory.
    if (target !== root && !target.startsWith(root + sep)) throw new AppError('invalid_request', `--from: refused path ${path}`);
    return existsSync(target) ? target : null;
  };
  return {
    recorded: true,
    url: (path, query) => withQuery(baseUrl, path, query),
    async json<T>(path: string, query: Query = {}): Promise<T | null> {
      signal?.throwIfAborted();
      requestCount++;
      let body = cache.get(path);
      if (body === undefined) {
        const found = file(`${path}.json`);
        if (!found) return null;
        body = JSON.parse(readFileSync(found, 'utf8').replace(/^\uFEFF/, ''));
        cache.set(path, body);
      }
      return pageOf(body, query) as T;
    },
    async text(path: string): Promise<string | null> {
      signal?.throwIfAborted();
      requestCount++;
      const found = file(path);
      return found ? readFileSync(found, 'utf8') : null;
    },
    get requestCount() {
      return requestCount;
    },
  };
}
