// The one HTTP client every ingest adapter uses (Node's fetch): a per-source minimum interval
// between requests, a timeout per attempt, and retries with exponential backoff on 429, 5xx and
// network failures, honouring Retry-After (RFC 9110 §10.2.3: delay-seconds or an HTTP-date).

export interface HttpClientOptions {
  /** Minimum milliseconds between the starts of two requests to this source (its rate limit). */
  minIntervalMs?: number;
  /** Milliseconds one attempt may take before it is abandoned and retried. */
  timeoutMs?: number;
  /** Attempts after the first one. */
  retries?: number;
  /** First backoff delay; doubled on each further attempt. */
  baseDelayMs?: number;
  /** Ceiling for one wait, whether computed or asked for by Retry-After. */
  maxDelayMs?: number;
  onProgress?: (line: string) => void;
  headers?: Record<string, string>;
  /** Stops the client: a request in flight is abandoned and nothing is retried. */
  signal?: AbortSignal | undefined;
}

export interface HttpClient {
  getText(url: string): Promise<string>;
  getJson<T = unknown>(url: string): Promise<T>;
  /** Requests sent so far, retries included. */
  readonly requestCount: number;
}

export class UpstreamError extends Error {
  readonly status: number | null;
  readonly url: string;
  constructor(message: string, url: string, status: number | null) {
    super(message);
    this.name = 'UpstreamError';
    this.url = url;
    this.status = status;
  }
}

/** Waits `ms`, or rejects with the signal's reason as soon as it is aborted. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (!signal) return new Promise((resolve) => setTimeout(resolve, ms));
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const stop = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal.addEventListener('abort', stop, { once: true });
  });
}

/** Milliseconds a Retry-After value asks for, or null when it is absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

/** Strips the query string so URLs in messages and logs never carry tokens a source may need. */
function shown(url: string): string {
  return url.split('?')[0] ?? url;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  const minIntervalMs = options.minIntervalMs ?? 250;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const retries = options.retries ?? 5;
  const baseDelayMs = options.baseDelayMs ?? 500;
  const maxDelayMs = options.maxDelayMs ?? 120_000;
  let nextSlot = 0;
  let requestCount = 0;

  // Callers may run requests concurrently; reserving the slot before waiting keeps the interval.
  async function takeTurn(): Promise<void> {
    const now = Date.now();
    const at = Math.max(now, nextSlot);
    nextSlot = at + minIntervalMs;
    if (at > now) await sleep(at - now, options.signal);
  }

  async function attempt(url: string): Promise<Response> {
    await takeTurn();
    requestCount++;
    return fetch(url, {
      headers: { accept: 'application/json, text/csv;q=0.9, */*;q=0.5', 'user-agent': 'council-tracker-ingest', ...options.headers },
      signal: options.signal ? AbortSignal.any([options.signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
    });
  }

  async function getText(url: string): Promise<string> {
    for (let tries = 0; ; tries++) {
      let wait: number;
      let reason: string;
      try {
        const res = await attempt(url);
        if (res.ok) return await res.text();
        await res.body?.cancel();
        if (!retryable(res.status) || tries >= retries) {
          throw new UpstreamError(`${shown(url)} answered ${res.status}`, url, res.status);
        }
        const asked = retryAfterMs(res.headers.get('retry-after'));
        wait = asked ?? baseDelayMs * 2 ** tries;
        reason = `${res.status}${asked !== null ? ' (Retry-After)' : ''}`;
      } catch (err) {
        if (err instanceof UpstreamError) throw err;
        options.signal?.throwIfAborted();
        if (tries >= retries) throw new UpstreamError(`${shown(url)} failed: ${(err as Error).message}`, url, null);
        wait = baseDelayMs * 2 ** tries;
        reason = (err as Error).name === 'TimeoutError' ? 'timeout' : 'network error';
      }
      wait = Math.min(wait, maxDelayMs);
      options.onProgress?.(`retrying ${shown(url)} after ${reason} in ${Math.round(wait)} ms (attempt ${tries + 2})`);
      await sleep(wait, options.signal);
    }
  }

  return {
    getText,
    async getJson<T>(url: string): Promise<T> {
      const text = await getText(url);
      try {
        return JSON.parse(text) as T;
      } catch {
        throw new UpstreamError(`${shown(url)} did not answer JSON`, url, null);
      }
    },
    get requestCount() {
      return requestCount;
    },
  };
}
