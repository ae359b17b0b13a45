// Types of idempotent write handling (decisions.md, "Envelopes and limits"; spec "v2 rules" 4).

/** Whose keys these are: the credential's owner, so a team's keys and tokens share one key space. */
export interface IdempotencyOwner {
  type: 'account' | 'team';
  id: string;
}

/** The first answer to a request, replayed for later requests with the same key. */
export interface StoredAnswer {
  status: number;
  /** Only the headers that describe the answer itself (see policy.keptHeaders). */
  headers: Record<string, string>;
  body: string;
}

export type ClaimOutcome =
  /** This request holds the key (for as long as its unit of work) and runs. */
  | { outcome: 'claimed' }
  /** The same request already finished: send its answer again. */
  | { outcome: 'replay'; answer: StoredAnswer }
  /** The same request is still running elsewhere. */
  | { outcome: 'in_progress' }
  /** The key was used for a different method, path or body. */
  | { outcome: 'mismatch' };

export interface ClaimInput {
  owner: IdempotencyOwner;
  key: string;
  /** policy.requestFingerprint of the request. */
  fingerprint: string;
}

/** A claimed key: completing it stores the answer in the same unit of work. */
export type HeldClaim = ClaimInput;
