// The guard's share of the unguarded route, read over alternating rounds. One loaded pass measures
// each route once, in a fixed order; on a shared machine the route measured first after the
// ceiling came out up to a third lower than the very same route with another credential of the same
// account measured right after it (2026-11-27: key 6,028 req/s, OAuth token 8,558, unguarded 8,723).
// So the pass's figures count as round one and two more rounds follow in other orders; the aims read
// the median round's shares.
import { type Measurement, type MeasureOptions, measure, type Target } from './measure.ts';

export const EXTRA_GUARD_ROUNDS = 2;

export interface GuardShares {
  /** The guarded route (one key) ÷ the unguarded route, per round. */
  guarded: number[];
  /** The route with 1,000 keys in rotation ÷ the unguarded route, per round. */
  manyKeys: number[];
  /**
   * The unguarded route sending the seven limit headers ÷ the unguarded route, per round: the
   * part of the guard's cost that is the headers themselves (made, sent and read by the client).
   */
  headers: number[];
}

type Four<T> = { detail: T; unguarded: T; manyKeys: T; headers: T };

export async function guardRounds(first: Four<Measurement>, targets: Four<Target>, options: MeasureOptions): Promise<GuardShares> {
  const shares: GuardShares = { guarded: [], manyKeys: [], headers: [] };
  const add = (m: Four<Measurement>) => {
    shares.guarded.push(m.detail.rps / m.unguarded.rps);
    shares.manyKeys.push(m.manyKeys.rps / m.unguarded.rps);
    shares.headers.push(m.headers.rps / m.unguarded.rps);
  };
  add(first);
  const orders = [
    ['unguarded', 'manyKeys', 'headers', 'detail'],
    ['manyKeys', 'detail', 'unguarded', 'headers'],
  ] as const;
  for (let round = 0; round < EXTRA_GUARD_ROUNDS; round++) {
    const m: Partial<Four<Measurement>> = {};
    for (const which of orders[round % orders.length]!) {
      console.log(`guard round ${round + 2}: measuring ${targets[which].name} for ${options.seconds} s (${options.connections} connections)`);
      m[which] = await measure(targets[which], options);
    }
    add(m as Four<Measurement>);
  }
  const show = (list: number[]) => `${(100 * median(list)).toFixed(1)} % (rounds ${list.map((x) => `${(100 * x).toFixed(1)} %`).join(', ')})`;
  console.log(
    `the guarded route, one key: ${show(shares.guarded)} of the unguarded route; 1,000 keys in rotation: ${show(shares.manyKeys)}; the unguarded route with the limit headers: ${show(shares.headers)}`,
  );
  return shares;
}

export const median = (list: readonly number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
