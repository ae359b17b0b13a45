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
}

type Three<T> = { detail: T; unguarded: T; manyKeys: T };

export async function guardRounds(first: Three<Measurement>, targets: Three<Target>, options: MeasureOptions): Promise<GuardShares> {
  const shares: GuardShares = { guarded: [], manyKeys: [] };
  const add = (m: Three<Measurement>) => {
    shares.guarded.push(m.detail.rps / m.unguarded.rps);
    shares.manyKeys.push(m.manyKeys.rps / m.unguarded.rps);
  };
  add(first);
  const orders = [
    ['unguarded', 'manyKeys', 'detail'],
    ['manyKeys', 'detail', 'unguarded'],
  ] as const;
  for (let round = 0; round < EXTRA_GUARD_ROUNDS; round++) {
    const m: Partial<Three<Measurement>> = {};
    for (const which of orders[round % orders.length]!) {
      console.log(`guard round ${round + 2}: measuring ${targets[which].name} for ${options.seconds} s (${options.connections} connections)`);
      m[which] = await measure(targets[which], options);
    }
    add(m as Three<Measurement>);
  }
  const show = (list: number[]) => `${(100 * median(list)).toFixed(1)} % (rounds ${list.map((x) => `${(100 * x).toFixed(1)} %`).join(', ')})`;
  console.log(`the guarded route, one key: ${show(shares.guarded)} of the unguarded route; 1,000 keys in rotation: ${show(shares.manyKeys)}`);
  return shares;
}

export const median = (list: readonly number[]) => [...list].sort((x, y) => x - y)[Math.floor(list.length / 2)]!;
