// Batched loading for one GraphQL request: every nested field asks for its record's part by id,
// and all the ids asked for at one level of the query (the sponsors of all 20 matters, the votes
// of all their roll calls) go to one batch operation of the catalogue, performed once when the
// level has been walked (the next tick, after the promise jobs that resolve the level's fields). So
// a nested query makes one SQL statement per level, never one per record. Answers are kept for the
// request, so a record's part asked for twice is read once.
import { MAX_BATCH } from '../../modules/public-data/operations-batch.ts';
import type { OperationId } from '../../catalogue.ts';

export type Perform = (id: OperationId, input: Record<string, unknown>) => Promise<unknown>;

interface Queue {
  op: OperationId;
  params: Record<string, unknown> | undefined;
  ids: string[];
  settle: { resolve(v: unknown): void; reject(e: unknown): void }[];
}

export class Batches {
  readonly #perform: Perform;
  readonly #kept = new Map<string, Promise<unknown>>();
  readonly #pending = new Map<string, Queue>();

  constructor(perform: Perform) {
    this.#perform = perform;
  }

  /** The part `op` answers for record `id` (with `params`, e.g. a page's limit and cursor). */
  load<T>(op: OperationId, id: string, params?: Record<string, unknown>): Promise<T> {
    const queueKey = params ? `${op}\u0000${JSON.stringify(params)}` : op;
    const key = `${queueKey}\u0000${id}`;
    const kept = this.#kept.get(key);
    if (kept) return kept as Promise<T>;
    let queue = this.#pending.get(queueKey);
    if (!queue) {
      const created: Queue = { op, params, ids: [], settle: [] };
      this.#pending.set(queueKey, created);
      process.nextTick(() => this.#flush(queueKey, created));
      queue = created;
    }
    const q = queue;
    const promise = new Promise<T>((resolve, reject) => {
      q.ids.push(id);
      q.settle.push({ resolve: resolve as (v: unknown) => void, reject });
    });
    this.#kept.set(key, promise);
    return promise;
  }

  #flush(queueKey: string, queue: Queue): void {
    this.#pending.delete(queueKey);
    for (let start = 0; start < queue.ids.length; start += MAX_BATCH) {
      const ids = queue.ids.slice(start, start + MAX_BATCH);
      const settle = queue.settle.slice(start, start + MAX_BATCH);
      this.#perform(queue.op, { ...queue.params, ids }).then(
        (answer) => {
          const data = (answer as { data: unknown[] }).data;
          for (const [i, s] of settle.entries()) s.resolve(data[i]);
        },
        (err: unknown) => {
          for (const s of settle) s.reject(err);
        },
      );
    }
  }
}
