// The fan-out: one subscription per process to the bus (and to PostgreSQL for membership events),
// and the open streams of each team. Every event is delivered only to streams whose viewer is
// still allowed (re-checked per event); a membership-removed event ends that person's streams at
// once, before any check.
import type { FastifyBaseLogger } from 'fastify';
import { type LiveEvent, parseLiveEvent } from './events.ts';

export interface LiveStream {
  teamId: string;
  accountId: string;
  /** Re-checked before each delivery; false (or an error) ends the stream. */
  stillAllowed(): Promise<boolean>;
  deliver(event: LiveEvent): void;
  /** Ends the stream (the hub has already forgotten it). */
  end(reason: 'removed' | 'not_allowed' | 'shutdown'): void;
}

export interface Hub {
  /** Registers a stream (subscribing the process on first use); resolves to its removal. */
  add(stream: LiveStream): Promise<() => void>;
  /** How many streams a team has open (0 for none). */
  count(teamId: string): number;
  /** Ends every stream (shutdown) and the subscriptions. */
  close(): Promise<void>;
}

type Subscribe = (onPayload: (payload: string) => void) => Promise<() => Promise<void>>;

export function createHub(sources: Subscribe[], log: FastifyBaseLogger): Hub {
  const streams = new Map<string, Set<LiveStream>>();
  let subscribed: Promise<(() => Promise<void>)[]> | null = null;

  function forget(s: LiveStream): boolean {
    const set = streams.get(s.teamId);
    if (!set?.delete(s)) return false;
    if (set.size === 0) streams.delete(s.teamId);
    return true;
  }

  function drop(s: LiveStream, reason: 'removed' | 'not_allowed' | 'shutdown'): void {
    if (forget(s)) s.end(reason);
  }

  async function deliver(s: LiveStream, event: LiveEvent): Promise<void> {
    let allowed = false;
    try {
      allowed = await s.stillAllowed();
    } catch (err) {
      // Unknown is not allowed: nothing private goes out unchecked; the browser reconnects.
      log.warn({ err }, 'live stream check failed');
    }
    if (!streams.get(s.teamId)?.has(s)) return;
    if (allowed) s.deliver(event);
    else drop(s, 'not_allowed');
  }

  function dispatch(payload: string): void {
    const event = parseLiveEvent(payload);
    if (!event) return;
    const set = streams.get(event.teamId);
    if (!set) return;
    for (const s of [...set]) {
      if (event.kind === 'membership' && event.id === s.accountId) drop(s, 'removed');
      else void deliver(s, event);
    }
  }

  function subscribeOnce() {
    subscribed ??= Promise.all(sources.map((subscribe) => subscribe(dispatch))).catch((err) => {
      subscribed = null;
      throw err;
    });
    return subscribed;
  }

  return {
    async add(stream) {
      await subscribeOnce();
      let set = streams.get(stream.teamId);
      if (!set) {
        set = new Set();
        streams.set(stream.teamId, set);
      }
      set.add(stream);
      return () => {
        forget(stream);
      };
    },
    count: (teamId) => streams.get(teamId)?.size ?? 0,
    async close() {
      for (const set of [...streams.values()]) for (const s of [...set]) drop(s, 'shutdown');
      const unsubscribe = subscribed ? await subscribed.catch(() => []) : [];
      subscribed = null;
      for (const u of unsubscribe) await u().catch(() => {});
    },
  };
}
