// Names of the benchmark's routes (by which aims find their figures) and the aims of issue 23
// for the guard and for search, each read within one run.
import { type GuardShares, median } from './guard-rounds.ts';
import type { Measurement } from './measure.ts';

export const ceilingName = 'ceiling (bare Fastify JSON)';
export const detailName = 'GET /api/v1/matters/{record}';
export const oauthName = 'GET /api/v1/matters/{record} (OAuth token)';
export const unguardedName = 'same, without guard';
export const manyKeysName = 'same, 1,000 keys in rotation';
/** The unguarded route sending the seven limit headers of an authenticated answer: what they cost alone. */
export const headersName = 'same, without guard, with the limit headers';
export const searchName = 'GET /api/v1/matters?q=…';
export const votesName = 'GET /api/v1/votes?person=…';
export const answerNames = ['POST /api/v1/answers (how did X vote on Y)', 'POST /api/v1/answers (passages)'];

type Figures = (name: string) => Measurement;

/**
 * The guard (credential check, access check, counting) under load: the detail route with one key
 * at least 85 % of the same route without the guard, with 1,000 keys in rotation at least 50 %,
 * and the guarded route's p99 under load at most 3 ms.
 */
export function guardAims(_alone: Figures, loaded: Figures, shares: GuardShares): Record<string, boolean> {
  return {
    guardedAtLeast85PercentOfUnguarded: median(shares.guarded) >= 0.85,
    manyKeysAtLeastHalfOfUnguarded: median(shares.manyKeys) >= 0.5,
    guardedLoadedP99AtMost3ms: loaded(detailName).p99 <= 3,
  };
}

/** Search and a person's votes as the database answers them (every request a URL of its own). */
export function searchAims(alone: Figures, loaded: Figures): Record<string, boolean> {
  return {
    searchP99AtMost15ms: alone(searchName).p99 <= 15,
    searchAtLeast1000RpsLoaded: loaded(searchName).rps >= 1000,
    ...votesAims(alone, loaded),
  };
}

/** A person's votes as the database answers them. */
export function votesAims(alone: Figures, loaded: Figures): Record<string, boolean> {
  return {
    votesP50AtMost1_5ms: alone(votesName).p50 <= 1.5,
    votesAtLeast1500RpsLoaded: loaded(votesName).rps >= 1500,
  };
}
