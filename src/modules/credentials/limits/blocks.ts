// Block reservation for busy owners. Counting every request with a store round trip caps a hot
// route far below its own speed, so an owner sending many data requests to this instance gets
// its units reserved in blocks (one store call), served from memory, and the unused rest given
// back. Blocks stay small (about 100 ms of the owner's traffic, a twentieth of the smallest
// remaining allowance, at most 1000) so other instances lose little room while a block is out;
// owners with light traffic are still counted exactly, one store call per request.
//
// The next block is reserved ahead, once half of the current one is used: requests go on being
// served from memory while the store answers, instead of all of them waiting for it (every
// request of a busy owner stalled for a store round trip per block otherwise, which halved a hot
// route's throughput under load). At most two blocks are out at once, each at most a twentieth of
// the room, so what an instance holds stays within a tenth of it.
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../../kernel/clock.ts';
import type { WindowSlot } from './policy.ts';
import type { ConsumeResult, CounterStore } from './store.ts';

/** A block holds about this many seconds of the owner's requests on this instance. */
const BLOCK_SECONDS = 0.1;
/** ...and at most this share (1/n) of the smallest remaining allowance of its windows (two may be out). */
const BLOCK_SHARE = 20;
const BLOCK_MAX = 1000;
/** Unused units go back to the store once the owner has sent nothing for this long. */
const IDLE_MS = 100;
const SWEEP_MS = 50;

interface Block {
  /** The buckets and limits it was reserved in (see blockKey); it serves only those. */
  key: string;
  slots: readonly WindowSlot[];
  /** Store counts right after the reservation, the whole block included. */
  counts: number[];
  size: number;
  unused: number;
  /** Clock time of the reservation. */
  from: number;
}

/** An owner busy enough for blocks on this instance. */
interface Hot {
  block: Block | null;
  /** Reserved ahead while `block` is still being served (same buckets); served once `block` is used up. */
  next: Block | null;
  /** The one reservation in flight: every request of the owner waits for it (single flight). */
  reserving: Promise<boolean> | null;
  /** Unused units on their way back to the store; counts read before it ends would include them. */
  releasing: Promise<void> | null;
  /** Store calls of single requests under way: a reservation waits for them, so its place in the store's order is known. */
  inflight: Set<Promise<unknown>>;
  /** The latest store counts seen for the buckets `knownKey` (they include unused block units). */
  known: number[] | null;
  knownKey: string | null;
  knownAt: number;
  lastSeen: number;
}

export interface Blocks {
  /**
   * Counts one data request from the owner's block when it has units left (the counts as used),
   * without waiting; undefined otherwise, and then nothing is counted (call consumeData).
   */
  takeData(owner: string, slots: readonly WindowSlot[], now: Date): number[] | undefined;
  /** Counts one data request: from a block when the owner is busy here, else exactly. */
  consumeData(owner: string, slots: readonly WindowSlot[], now: Date): Promise<ConsumeResult>;
  /** Counts one request exactly (AI answers, GET /me), counts shown without this instance's unused units. */
  consumeExact(owner: string, slots: readonly WindowSlot[], now: Date): Promise<ConsumeResult>;
  /** Gives back units counted exactly (an AI answer that was not given): `amounts[i]` of slot i. */
  giveBack(owner: string, slots: readonly WindowSlot[], amounts: readonly number[]): Promise<void>;
  /** The counts as used: store counts less this instance's unused units of the same buckets. */
  read(owner: string, slots: readonly WindowSlot[]): Promise<number[]>;
  /** Gives every unused unit back. */
  close(): Promise<void>;
}

const blockKeys = new WeakMap<readonly WindowSlot[], string>();
/** The buckets and limits of a set of slots (kept per slots array: policy.ts reuses one for a second). */
function blockKey(slots: readonly WindowSlot[]): string {
  let key = blockKeys.get(slots);
  if (key === undefined) {
    key = slots.map((s) => `${s.bucket}/${s.limit}`).join(' ');
    blockKeys.set(slots, key);
  }
  return key;
}

/** Requests per owner in the current and the previous second of the clock. */
function rateMeter() {
  let second = Number.NaN;
  let current = new Map<string, number>();
  let previous = new Map<string, number>();
  return (owner: string, at: number): number => {
    const s = Math.floor(at / 1000);
    if (s !== second) {
      previous = s === second + 1 ? current : new Map();
      current = new Map();
      second = s;
    }
    const n = (current.get(owner) ?? 0) + 1;
    current.set(owner, n);
    // The second under way is a lower bound of the rate as soon as it passes the last one.
    return Math.max(n, previous.get(owner) ?? 0);
  };
}

export function createBlocks(store: CounterStore, clock: Clock, log: FastifyBaseLogger): Blocks {
  const hots = new Map<string, Hot>();
  const hit = rateMeter();
  let timer: NodeJS.Timeout | null = null;

  function hotFor(owner: string, at: number): Hot {
    const hot: Hot = { block: null, next: null, reserving: null, releasing: null, inflight: new Set(), known: null, knownKey: null, knownAt: at, lastSeen: at };
    hots.set(owner, hot);
    timer ??= setInterval(sweep, SWEEP_MS).unref();
    return hot;
  }

  function learn(hot: Hot, key: string, at: number, counts: readonly number[]): void {
    if (hot.knownKey === key && hot.known) {
      // Answers can arrive out of order; within the same buckets a higher count is the later one.
      hot.known = hot.known.map((c, i) => Math.max(c, counts[i] ?? 0));
    } else if (hot.knownKey === null || at >= hot.knownAt) {
      hot.known = [...counts];
      hot.knownKey = key;
      hot.knownAt = at;
    }
  }

  /**
   * Counts as the client sees them: less this instance's unused units, in the windows where
   * `counts` already hold the block. Counts taken before the reservation are at most
   * counts − size; counts taken after it are higher (the store orders the calls).
   */
  function asUsed(counts: readonly number[], hot: Hot, key: string): number[] {
    const out = counts.slice();
    lessUnused(out, counts, hot.block, key);
    lessUnused(out, counts, hot.next, key);
    return out;
  }

  /** `out` less the block's unused units, in the windows where `counts` already hold the block (asUsed). */
  function lessUnused(out: number[], counts: readonly number[], block: Block | null, key: string): void {
    if (!block || block.key !== key || block.unused === 0) return;
    for (let i = 0; i < counts.length; i++) {
      if (block.slots[i]!.counted && counts[i]! > block.counts[i]! - block.size) out[i] = Math.max(0, out[i]! - block.unused);
    }
  }

  /** Takes the block away from the owner and gives its unused units back to the store. */
  function retire(owner: string, hot: Hot, block: Block): void {
    if (hot.block === block) hot.block = null;
    if (hot.next === block) hot.next = null;
    const n = block.unused;
    block.unused = 0;
    if (n === 0) return;
    if (hot.knownKey === block.key && hot.known) hot.known = hot.known.map((c, i) => (block.slots[i]!.counted ? c - n : c));
    const before = hot.releasing;
    const amounts = block.slots.map((s) => (s.counted ? n : 0));
    const releasing: Promise<void> = (async () => {
      await before;
      await store.release(owner, block.slots, amounts);
    })()
      .catch((err: unknown) => log.warn({ err, owner, units: n }, 'giving back unused limit units failed; they stay counted until their bucket ends'))
      .finally(() => {
        if (hot.releasing === releasing) hot.releasing = null;
      });
    hot.releasing = releasing;
  }

  async function exact(hot: Hot, owner: string, slots: readonly WindowSlot[], now: Date, key: string): Promise<ConsumeResult> {
    if (hot.releasing) await hot.releasing;
    // A reservation already under way may come before this call in the store; its units are then in
    // these counts, so its block must be known here before the counts are shown less its unused units.
    const reservation = hot.reserving;
    const call = store.consume(owner, slots, now);
    hot.inflight.add(call);
    const result = await call.finally(() => hot.inflight.delete(call));
    if (reservation) await reservation.catch(() => false);
    learn(hot, key, now.getTime(), result.counts);
    return { refused: result.refused, counts: asUsed(result.counts, hot, key) };
  }

  function reserve(hot: Hot, owner: string, slots: readonly WindowSlot[], now: Date, key: string, rate: number): Promise<boolean> {
    const reserving: Promise<boolean> = (async () => {
      // Single requests already sent land first, so none of their counts can hold this block unseen.
      await Promise.allSettled([...hot.inflight]);
      if (hot.releasing) await hot.releasing;
      // Sized on the counts just learned: still worth a block?
      const size = blockSize(hot, key, slots, rate);
      if (size < 2) return false;
      const result = await store.consume(owner, slots, now, size);
      learn(hot, key, now.getTime(), result.counts);
      if (result.refused >= 0) return false;
      const block = { key, slots, counts: result.counts, size, unused: size, from: now.getTime() };
      // Reserved ahead: served once the current block is used up.
      if (hot.block && hot.block.key === key && hot.block.unused > 0 && !hot.next) hot.next = block;
      else {
        retireAll(owner, hot);
        hot.block = block;
      }
      return true;
    })().finally(() => {
      hot.reserving = null;
    });
    hot.reserving = reserving;
    return reserving;
  }

  /** Reserves a block when one is worth it; false when the request should be counted on its own. */
  async function reserveFor(hot: Hot, owner: string, slots: readonly WindowSlot[], now: Date, key: string, rate: number): Promise<boolean> {
    return blockSize(hot, key, slots, rate) >= 2 && reserve(hot, owner, slots, now, key, rate);
  }

  function blockSize(hot: Hot, key: string, slots: readonly WindowSlot[], rate: number): number {
    // Counts not seen yet for these buckets (first request, a new minute): one exact request learns them.
    if (hot.knownKey !== key || !hot.known) return 0;
    let room = Number.POSITIVE_INFINITY;
    for (const [i, s] of slots.entries()) if (s.counted) room = Math.min(room, s.limit - hot.known[i]!);
    return Math.min(Math.floor(rate * BLOCK_SECONDS), Math.floor(room / BLOCK_SHARE), BLOCK_MAX);
  }

  function retireAll(owner: string, hot: Hot): void {
    if (hot.next) retire(owner, hot, hot.next);
    if (hot.block) retire(owner, hot, hot.block);
  }

  function take(hot: Hot, block: Block, key: string): ConsumeResult {
    block.unused -= 1;
    return { refused: -1, counts: asUsed(hot.knownKey === key && hot.known ? hot.known : block.counts, hot, key) };
  }

  /** Once half of the block is used, the next one is reserved in the background (a refusal just means none comes). */
  function reserveAhead(hot: Hot, owner: string, slots: readonly WindowSlot[], now: Date, key: string, rate: number): void {
    const block = hot.block;
    if (!block || hot.next || hot.reserving || block.unused * 2 > block.size) return;
    reserveFor(hot, owner, slots, now, key, rate).catch((err: unknown) => log.warn({ err, owner }, 'reserving the next block of limit units failed'));
  }

  function sweep(): void {
    const at = clock.now().getTime();
    for (const [owner, hot] of hots) {
      if (hot.reserving || at - hot.lastSeen < IDLE_MS) continue;
      if (hot.block || hot.next) retireAll(owner, hot);
      else if (!hot.releasing) hots.delete(owner);
    }
    if (hots.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  }

  /** Serves one request from the block (it has units) and reserves the next ahead when due. */
  function serve(hot: Hot, block: Block, owner: string, slots: readonly WindowSlot[], now: Date, key: string, rate: number): ConsumeResult {
    const taken = take(hot, block, key);
    reserveAhead(hot, owner, slots, now, key, rate);
    return taken;
  }

  return {
    takeData(owner, slots, now) {
      const hot = hots.get(owner);
      const block = hot?.block;
      // An owner without a block (every light owner) is told so before any key is made.
      if (!hot || !block || block.unused === 0) return undefined;
      const key = blockKey(slots);
      if (block.key !== key) return undefined;
      const at = now.getTime();
      hot.lastSeen = Math.max(hot.lastSeen, at);
      return serve(hot, block, owner, slots, now, key, hit(owner, at)).counts;
    },

    async consumeData(owner, slots, now) {
      const at = now.getTime();
      const rate = hit(owner, at);
      let hot = hots.get(owner);
      if (!hot) {
        if (Math.floor(rate * BLOCK_SECONDS) < 2) return store.consume(owner, slots, now);
        hot = hotFor(owner, at);
      }
      hot.lastSeen = Math.max(hot.lastSeen, at);
      const key = blockKey(slots);
      // Loops only while reservations are granted (each one brings units); after a refusal the
      // request is counted on its own, so contention never makes it spin.
      for (;;) {
        let block = hot.block;
        if (block && block.key !== key) {
          // A block of other buckets: an older one is given back; a request older than it counts exactly in its own buckets.
          if (block.from > at) return exact(hot, owner, slots, now, key);
          retireAll(owner, hot);
          block = null;
        }
        if (block && block.unused > 0) return serve(hot, block, owner, slots, now, key, rate);
        if (block && hot.next) {
          // Used up: the block reserved ahead takes its place.
          hot.block = hot.next;
          hot.next = null;
          continue;
        }
        const granted = hot.reserving ? await hot.reserving : await reserveFor(hot, owner, slots, now, key, rate);
        if (!granted) break;
      }
      // Light enough, near a limit, or the block was refused: this request alone, exactly.
      const result = await exact(hot, owner, slots, now, key);
      if (result.refused >= 0) {
        // Refused while a block was being reserved: its units, if granted, may serve this request.
        if (hot.reserving) await hot.reserving.catch(() => false);
        for (const block of [hot.block, hot.next]) if (block && block.key === key && block.unused > 0) return take(hot, block, key);
      }
      return result;
    },

    async consumeExact(owner, slots, now) {
      const hot = hots.get(owner);
      if (!hot) return store.consume(owner, slots, now);
      const key = blockKey(slots);
      const result = await exact(hot, owner, slots, now, key);
      const held = result.refused >= 0 && [hot.block, hot.next].some((b) => b?.key === key && b.unused > 0 && b.slots[result.refused]!.counted);
      // Refused for room this instance holds unused: give it back and try once more, so one instance stays exact.
      if (held) {
        retireAll(owner, hot);
        return exact(hot, owner, slots, now, key);
      }
      return result;
    },

    async giveBack(owner, slots, amounts) {
      const hot = hots.get(owner);
      if (hot?.releasing) await hot.releasing;
      await store.release(owner, slots, amounts);
      // Counts learned before stay the highest seen for these buckets unless lowered here too.
      if (hot && hot.knownKey === blockKey(slots) && hot.known) hot.known = hot.known.map((c, i) => Math.max(0, c - (amounts[i] ?? 0)));
    },

    async read(owner, slots) {
      const hot = hots.get(owner);
      if (!hot) return store.read(owner, slots);
      // A block reserved ahead in the background may be in the store's counts before it is known
      // here, and the counts would then show its unused units as used: read once none is under way.
      for (let attempt = 0; ; attempt++) {
        if (hot.releasing) await hot.releasing;
        if (hot.reserving) await hot.reserving.catch(() => false);
        const counts = await store.read(owner, slots);
        if (!hot.reserving || attempt >= 4) return asUsed(counts, hot, blockKey(slots));
      }
    },

    async close() {
      if (timer) clearInterval(timer);
      timer = null;
      await Promise.allSettled([...hots.values()].map((h) => h.reserving));
      for (const [owner, hot] of hots) retireAll(owner, hot);
      await Promise.all([...hots.values()].map((h) => h.releasing));
      hots.clear();
    },
  };
}
