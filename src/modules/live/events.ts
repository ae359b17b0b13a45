// What travels on the live channel: team-data's TeamChange after every committed team write, and a
// membership event when someone leaves a team or is removed (their open streams end at once).
import type { TeamChange } from '../team-data/index.ts';

export interface MembershipEvent {
  teamId: string;
  kind: 'membership';
  action: 'deleted';
  /** The account whose membership ended. */
  id: string;
  at: string;
}

export type LiveEvent = TeamChange | MembershipEvent;

const kinds = new Set(['follow', 'note', 'position', 'stance', 'targets', 'dashboard', 'membership']);
const actions = new Set(['created', 'updated', 'deleted']);

/**
 * A payload from the channel, or null when it is not one of ours. The channel is shared with
 * every instance (and anyone who can NOTIFY), so nothing on it is trusted before this check.
 */
export function parseLiveEvent(payload: string): LiveEvent | null {
  let v: unknown;
  try {
    v = JSON.parse(payload);
  } catch {
    return null;
  }
  if (v === null || typeof v !== 'object') return null;
  const e = v as Record<string, unknown>;
  const text = (x: unknown) => typeof x === 'string' && x.length > 0 && x.length <= 300;
  if (!text(e.teamId) || !text(e.id) || typeof e.at !== 'string') return null;
  if (!kinds.has(e.kind as string) || !actions.has(e.action as string)) return null;
  return { teamId: e.teamId, kind: e.kind, action: e.action, id: e.id, at: e.at } as LiveEvent;
}
