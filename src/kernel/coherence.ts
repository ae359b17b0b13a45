// Cache coherence between the instances that share one database (migration 0070 explains the
// protocol). An instance keeps values in memory only while it can hear every change to them:
// each cache checks `usable()` and the channel's `generation()` — a number that moves on a change
// that names nothing in particular and whenever the listening connection is lost or regained — and
// drops what it holds when the generation moves. A change of one row names what it touches (a key
// such as `api_key:<id>` or `follows:legislation:<record>`, migration 0150), and drops only the
// values kept under that key: a person following a record, or revoking their own key, does not
// empty every cache of every instance. A value read while the generation was g is kept only if
// the generation is still g, and none of its keys changed, when the read ends, so a read racing a
// change is never kept.
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
  /** Moves whenever any value cached from this channel's tables may be stale (drop everything). */
  generation(): number;
  /** Whether cached values may be served now (the instance hears changes and holds its lease). */
  usable(): boolean;
  /**
   * Changes that name what they touch (a NOTIFY whose payload is a key, such as `follows:legislation:O2023-1`
   * or `api_key:<id>`): a number that moves on each, and the number at which `key` last changed
   * (or may have: past MAX_REMEMBERED keys, every key reads as changed when the memory was reset).
   * Only values kept under that key are stale; everything else stays.
   */
  changeSeq(): number;
  changedAt(key: string): number;
}

export interface Coherence {
  power: CacheChannel;
  publicData: CacheChannel;
  /** See settlePower(): every writer of power calls it after its commit. */
  settlePower(): Promise<void>;
  close(): Promise<void>;
}

/** What a reader notes before reading a value from the database (CoherentMap.mark()). */
export interface CacheMark {
  readonly generation: number;
  readonly seq: number;
}

/** How a CoherentMap is bounded: by the sum of its values' sizes (default: how many values). */
export interface Bound<V> {
  max: number;
  sizeOf?(value: V): number;
  /**
   * Admission at a key's second sight (a doorkeeper, as in TinyLFU): once the map is full, or
   * holds `secondSightFrom` of its bound, a new key's value is kept only if the key was refused
   * once before, among about this many keys refused since. A stream
   * of answers asked for once each (a crawler, a sync client, every request a URL of its own)
   * then leaves the kept values alone instead of replacing all of them, and its answers die
   * young instead of living in the old generation until pushed out. While the map holds less
   * than `secondSightFrom` of its bound every value is kept at once. Off when absent.
   */
  secondSight?: number;
  /** The share of `max` (0–1) from which second sight applies: 1, once full, unless given. */
  secondSightFrom?: number;
}

/**
 * The admission of the stores of public answers (HTTP answers, kept searches, MCP results), one
 * setting for the three: a key's second sight, among 10,000 refused keys remembered a generation
 * (at most 20,000 numbers, a few hundred kilobytes), from a sixteenth of the bound on, not only
 * once full. Past that share a one-off answer is not kept at all, where admission once full kept a
 * stream of one-off answers until the bound (64 MB of HTTP answers), promoted to the old
 * generation and collected there. In the benchmark's search subset (every request a URL of its
 * own): one-connection search p99 17.4 and 17.5 ms against 19.9 to 24.3 ms, the service's peak
 * 240 MiB against 313 to 322 MiB (README, Performance).
 */
export const ANSWERS_ADMISSION = { secondSight: 10_000, secondSightFrom: 1 / 16 } as const;

/** 32-bit FNV-1a of a string's UTF-16 code units: the doorkeeper's fingerprint of a key. */
function fingerprint(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/**
 * The keys refused recently, as fingerprints (a collision only lets a value in early), in two
 * generations of at most `size` each: the older is forgotten when the newer fills, so memory stays
 * bounded and a key is remembered for between `size` and twice `size` refusals.
 */
class Doorkeeper {
  #current = new Set<number>();
  #previous = new Set<number>();
  readonly #size: number;

  constructor(size: number) {
    this.#size = size;
  }

  /** Whether `key` was refused recently, without forgetting it. */
  knows(key: string): boolean {
    const f = fingerprint(key);
    return this.#current.has(f) || this.#previous.has(f);
  }

  /** Whether `key` was refused recently (it passes now, and is forgotten); otherwise notes it. */
  passes(key: string): boolean {
    const f = fingerprint(key);
    if (this.#current.delete(f) || this.#previous.delete(f)) return true;
    if (this.#current.size >= this.#size) {
      this.#previous = this.#current;
      this.#current = new Set();
    }
    this.#current.add(f);
    return false;
  }
}

/**
 * A map kept coherent by a channel: emptied whenever the channel's generation moves, read only
 * while the channel is usable, and written only with a value read while nothing it depends on
 * changed (take `mark()` before reading it from the database). A value may name the keys of
 * keyed changes it depends on (`set(…, keys)`): a change of one of those drops it alone. Bounded
 * by `bound`: the least recently used values make room (`get` makes a value the most recent).
 */
export class CoherentMap<V> {
  readonly #entries = new Map<string, { value: V; size: number; keys: readonly string[]; seq: number }>();
  readonly #channel: CacheChannel;
  readonly #max: number;
  readonly #sizeOf: (value: V) => number;
  readonly #doorkeeper: Doorkeeper | null;
  /** Held above this many (size units), a new key's value waits for its second sight. */
  readonly #admitFreelyUpTo: number;
  #total = 0;
  #generation: number;

  constructor(channel: CacheChannel, bound: Bound<V>) {
    this.#channel = channel;
    this.#max = bound.max;
    this.#sizeOf = bound.sizeOf ?? (() => 1);
    this.#doorkeeper = bound.secondSight ? new Doorkeeper(bound.secondSight) : null;
    this.#admitFreelyUpTo = bound.max * (bound.secondSightFrom ?? 1);
    this.#generation = channel.generation();
  }

  /** Empties the map if the generation moved; says whether the channel may be used now. */
  #fresh(): boolean {
    const usable = this.#channel.usable();
    const now = this.#channel.generation();
    if (now !== this.#generation) {
      this.#entries.clear();
      this.#total = 0;
      this.#generation = now;
    }
    return usable;
  }

  /** Whether a key the value depends on changed after `seq`. */
  #changedSince(keys: readonly string[], seq: number): boolean {
    return keys.some((key) => this.#channel.changedAt(key) > seq);
  }

  /** The entry under `key` if it is usable now; a stale one (a key it depends on changed) is dropped. */
  #entry(key: string) {
    if (!this.#fresh()) return undefined;
    const entry = this.#entries.get(key);
    if (entry && this.#changedSince(entry.keys, entry.seq)) {
      this.#delete(key);
      return undefined;
    }
    return entry;
  }

  #delete(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#total -= entry.size;
  }

  /** What the kept values count against the bound (their sizes added up). */
  get size(): number {
    return this.#total;
  }

  /** Whether a usable value is kept under `key` (without making it the most recent). */
  has(key: string): boolean {
    return this.#entry(key) !== undefined;
  }

  /** The value kept under `key`, made the most recently used; undefined when none is usable. */
  get(key: string): V | undefined {
    const entry = this.#entry(key);
    if (!entry) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.value;
  }

  /**
   * Whether keep() would refuse any value under `key` now, before it is made: the channel cannot be
   * used, or (with `secondSight`) the map holds `secondSightFrom` of its bound and `key` is neither
   * kept nor refused recently. Such a key is noted as keep() would have noted it, so it passes at
   * its next sight. A caller that must do work to make a value (a page's JSON, its bytes) asks
   * first: on a busy map most new keys are refused, and that work was thrown away.
   */
  refusesUnmade(key: string): boolean {
    if (!this.#fresh()) return true;
    if (!this.#doorkeeper || this.#total < this.#admitFreelyUpTo || this.#entries.has(key) || this.#doorkeeper.knows(key)) return false;
    this.#doorkeeper.passes(key);
    return true;
  }

  /** Before a read; keep() keeps what was read only if nothing it depends on moved since. */
  mark(): CacheMark {
    return { generation: this.#channel.generation(), seq: this.#channel.changeSeq() };
  }

  /**
   * Keeps a value read since `mark`, unless the channel is unusable, its generation moved or one of
   * `keys` changed since: a value read across a change may predate it. Later, a change of one of
   * `keys` drops it alone. Values larger than the whole bound are not kept, nor (with
   * `secondSight`) a new key's value past `secondSightFrom` of the bound. Returns whether it was.
   */
  keep(key: string, value: V, mark: CacheMark, keys: readonly string[] = []): boolean {
    if (!this.#fresh() || mark.generation !== this.#generation || this.#changedSince(keys, mark.seq)) return false;
    const size = this.#sizeOf(value);
    if (size > this.#max) return false;
    const replaced = this.#entries.get(key)?.size ?? 0;
    if (this.#doorkeeper && replaced === 0 && this.#total + size > this.#admitFreelyUpTo && !this.#doorkeeper.passes(key)) return false;
    this.#delete(key);
    for (let oldest = this.#entries.keys().next(); this.#total + size > this.#max && !oldest.done; oldest = this.#entries.keys().next()) {
      this.#delete(oldest.value);
    }
    this.#entries.set(key, { value, size, keys, seq: mark.seq });
    this.#total += size;
    return true;
  }
}

/** How many changed keys a channel remembers; past that it forgets them and every keyed value reads as stale. */
export const MAX_REMEMBERED = 10_000;

/** The keyed changes heard on one channel (CacheChannel.changeSeq / changedAt). */
function keyedChanges() {
  let seq = 0;
  let floor = 0;
  const at = new Map<string, number>();
  return {
    note(key: string): void {
      seq++;
      if (at.size >= MAX_REMEMBERED) {
        at.clear();
        floor = seq;
      }
      at.delete(key);
      at.set(key, seq);
    },
    changeSeq: () => seq,
    changedAt: (key: string) => Math.max(at.get(key) ?? 0, floor),
  };
}

/** A channel no instance listens on: nothing is ever cached. */
const uncached: CacheChannel = { generation: () => 0, usable: () => false, changeSeq: () => 0, changedAt: () => 0 };

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

  // A payload is '' (anything may have changed: drop everything), a barrier's number (settlePower:
  // acknowledged, nothing dropped — the change it follows was heard before it), or the key of what
  // one row's change touched (migration 0150): only values kept under that key are dropped.
  const powerKeys = keyedChanges();
  const publicKeys = keyedChanges();
  const unlistenPower = await database.listen(
    POWER_CHANNEL,
    (payload) => {
      if (payload === '') powerGen++;
      else if (/^\d+$/.test(payload)) {
        const barrier = Number(payload);
        if (Number.isSafeInteger(barrier) && barrier > seen) {
          seen = barrier;
          writeAcks();
        }
      } else powerKeys.note(payload);
    },
    onState,
  );
  const unlistenPublic = await database.listen(PUBLIC_DATA_CHANNEL, (payload) => (payload === '' ? publicGen++ : publicKeys.note(payload)), onState);

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
    power: { generation: () => powerGen, usable, changeSeq: powerKeys.changeSeq, changedAt: powerKeys.changedAt },
    publicData: { generation: () => publicGen, usable, changeSeq: publicKeys.changeSeq, changedAt: publicKeys.changedAt },
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
