// The part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    timeout?: number;
    headers?: Record<string, string>;
    requests?: Array<{
      /** `context` is the connection's own object, kept between its requests. */
      setupRequest?: (request: Record<string, unknown>, context: any) => Record<string, unknown>;
      /** Called with each response to this request, before the connection sends its next one. */
      onResponse?: (status: number, body: unknown, context: any) => void;
    }>;
  }

  interface Result {
    start: Date | string;
    finish: Date | string;
    non2xx: number;
    errors: number;
    timeouts: number;
  }

  interface Instance extends EventEmitter, PromiseLike<Result> {}

  function autocannon(options: Options): Instance;
  export default autocannon;
}
