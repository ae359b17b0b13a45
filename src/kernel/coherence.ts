// Cache coherence between the instances that share one database (migration 0070 explains the
// protocol). An instance keeps values in memory only while it can hear every change to them:
// each cache checks `usable()` and the channel's `generation()` — a number that moves on every
// change notification and whenever the listening connection is lost or regained — and drops what
// it holds when the generation moves. A value read while the generation was g is kept only if
// the generation is still g when the read ends, so a read racing a change is never kept.
//
// Power (what a credential may do) is also acknowledged: settlePower(), called by a writer after
// its commit, returns once every live instance has seen the change, so "a lost role bites on the
// key's next request" holds across instances (spec "Rules" 1), not merely soon after.
import { type Kysely, sql } from 'kysely';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './db.ts';

export const POWER_CHANNEL = 'council_power';
export const PUBLIC_DATA_CHANNEL = 'council_public_data';

/** How long an instance may use its caches after it last renewed its row in cache_peers. */
export const LEASE_MS = 3000;
const RENEW_MS = 1000;

export interface CacheChannel {
  /** Moves whenever values cached from this channel's tables may be stale. */
  generation(): number;
  /** Whether cached values may be served now (the instance hears changes and holds its lease). */
  usable(): boolean;
}

export interface Coherence {
  power: CacheChannel;
  publicData: CacheChannel;
  /** See settlePower(): every writer of power calls it after its commit. */
  settlePower(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A map kept coherent by a channel: emptied whenever the channel's generation moves, read only
 * while the channel is usable, and written only with a value read while nothing changed (take
 * `mark()` before reading it from the database). Eviction is the owner's, through `entries`.
 */
export class CoherentMap<V> {
  readonly entries = new Map<string, V>();
  readonly #channel: CacheChannel;
  readonly #onClear: () => void;
  #generation: number;

  constructor(channel: CacheChannel, onClear: () => void = () => {}) {
    this.#channel = channel;
    this.#onClear = onClear;
    this.#generation = channel.generation();
  }

  /** Empties the map if the generation moved; says whether the channel may be used now. */
  #fresh(): boolean {
    const usable = this.#channel.usable();
    const now = this.#channel.generation();
    if (now !== this.#generation) {
      this.entries.clear();
      this.#onClear();
      this.#generation = now;
    }
    return usable;
  }

  get(key: string): V | undefined {
    return this.#fresh() ? this.entries.get(key) : undefined;
  }

  /** The generation before a read; set() keeps what was read only if it has not moved since. */
  mark(): number {
    return this.#channel.generation();
  }

  /** Whether a value read since `mark` may be kept now. */
  mayKeep(mark: number): boolean {
    return this.#fresh() && mark === this.#generation;
  }
}

/** A channel no instance listens on: nothing is ever cached. */
const uncached: CacheChannel = { generation: () => 0, usable: () => false };

/** For a process that serves no requests (the CLI): it caches nothing, but still settles what it changes. */
export function withoutCaches(db: Kysely<any>, log?: FastifyBaseLogger): Coherence {
  return { power: uncached, publicData: uncached, settlePower: () => settlePower(db, log), close: async () => {} };
}

/**
 * After a commit that changed keys, accounts, teams or memberships: sends a barrier and waits
 * until every instance that holds a lease has acknowledged it (or let its lease lapse, after
 * which it no longer uses its cache). The barrier is sent after the commit and NOTIFY keeps
 * commit order, so an instance that acknowledges it has dropped every value cached before it.
 */
export async function settlePower(db: Kysely<any>, log?: FastifyBaseLogger): Promise<void> {
  const { rows } = await sql<{ n: number }>`
    with b as (select nextval('cache_barrier_seq') as n) select n, pg_notify(${POWER_CHANNEL}, n::text) from b`.execute(db);
  const barrier = rows[0]!.n;
  const deadline = Date.now() + LEASE_MS + 2 * RENEW_MS;
  let pause = 1;
  for (;;) {
    const behind = await sql<{ n: number }>`
      select count(*) as n from cache_peers
       where acked < ${barrier} and renewed_at > now() - make_interval(secs => ${LEASE_MS / 1000})`.execute(db);
    if (behind.rows[0]!.n === 0) return;
    if (Date.now() > deadline) {
      log?.warn({ barrier }, 'instances did not acknowledge a change of power within their lease');
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, pause));
    pause = Math.min(pause * 2, 20);
  }
}

/**
 * Joins the instances that cache: listens on both channels, registers a row in cache_peers and
 * renews it every second. Until the first renewal, and whenever a renewal fails for longer than
 * the lease or the listener is lost, every channel reads as not usable.
 */
export async function startCoherence(database: Database<any>, log: FastifyBaseLogger): Promise<Coherence> {
  const db = database.db;
  const id = `peer_${crypto.randomUUID()}`;
  let listening = true;
  let validUntil = 0;
  let wasUsable = false;
  let powerGen = 0;
  let publicGen = 0;
  let closed = false;

  const dropAll = () => {
    powerGen++;
    publicGen++;
  };
  const usable = () => {
    const now = listening && performance.now() < validUntil;
    // Coming back from a lapse: whatever was cached may have missed a change (writers stopped
    // waiting for this instance), so it is all dropped.
    if (now && !wasUsable) dropAll();
    wasUsable = now;
    return now;
  };
  const onState = (up: boolean) => {
    listening = up;
    dropAll();
  };

  // Acknowledgements: the highest barrier seen, written one update at a time.
  let seen = 0;
  let written = 0;
  let writing: Promise<void> | null = null;
  const writeAcks = () => {
    if (writing || closed || seen <= written) return;
    const n = seen;
    writing = sql`update cache_peers set acked = greatest(acked, ${n}) where id = ${id}`
      .execute(db)
      .then(
        () => {
          written = Math.max(written, n);
        },
        (err: unknown) => log.warn({ err }, 'acknowledging a change of power failed'),
      )
      .finally(() => {
        writing = null;
        writeAcks();
      });
  };

  const unlistenPower = await database.listen(
    POWER_CHANNEL,
    (payload) => {
      powerGen++;
      const barrier = Number(payload);
      if (payload !== '' && Number.isSafeInteger(barrier) && barrier > seen) {
        seen = barrier;
        writeAcks();
      }
    },
    onState,
  );
  const unlistenPublic = await database.listen(PUBLIC_DATA_CHANNEL, () => publicGen++, onState);

  // Listening before registering: every barrier numbered after the one read here reaches us, and
  // the ones before it found nothing cached here to drop.
  const renew = async () => {
    const started = performance.now();
    await sql`
      insert into cache_peers as p (id, acked, renewed_at)
      select ${id}, case when is_called then last_value else 0 end, now() from cache_barrier_seq
      on conflict (id) do update set renewed_at = now()`.execute(db);
    validUntil = started + LEASE_MS;
  };
  await renew();
  let lastSweep = 0;
  const timer = setInterval(() => {
    renew()
      .then(async () => {
        // Rows of instances that stopped without saying so are kept an hour, then removed.
        if (performance.now() - lastSweep < 600_000) return;
        lastSweep = performance.now();
        await sql`delete from cache_peers where renewed_at < now() - interval '1 hour'`.execute(db);
      })
      .catch((err: unknown) => log.warn({ err }, 'renewing the cache lease failed'));
  }, RENEW_MS);
  timer.unref();

  return {
    power: { generation: () => powerGen, usable },
    publicData: { generation: () => publicGen, usable },
    settlePower: () => settlePower(db, log),
    async close() {
      closed = true;
      clearInterval(timer);
      validUntil = 0;
      await writing;
      await unlistenPower();
      await unlistenPublic();
      await sql`delete from cache_peers where id = ${id}`.execute(db).catch(() => {});
    },
  };
}
