// What this actor may do to this object (house style, gate 3). Pure functions: the services call
// them before any read of private data or any side effect. Another team's object is never
// visible, so it is not_found, never forbidden; someone else's note of the same team is forbidden.
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { PersonKindValue, StanceSource } from './schema.ts';

export interface TeamScope {
  teamId: string;
}

/** The team the actor acts for; team data is reachable only through a team context. */
export function teamOf(actor: Actor): string {
  if (!actor.team) throw new AppError('team_only', 'This operation needs a team credential.');
  return actor.team.id;
}

/** Personal follows belong to the account; a team credential never reaches them. */
export function personalAccountOf(actor: Actor): string {
  if (actor.team) throw new AppError('personal_only', 'This operation needs a personal credential.');
  return actor.account.id;
}

/** Only a note's author changes or deletes it (spec "Note"). */
export function requireNoteAuthor(actor: Actor, note: { author_id: string }): void {
  if (note.author_id !== actor.account.id) throw new AppError('forbidden', 'Only the author of a note may change or delete it.');
}

/** Residents and organization representatives need people.private.read and the offices feature. */
export function seesPrivatePeople(actor: Actor): boolean {
  return !!actor.team?.features.includes('offices') && actor.scopes.includes('people.private.read');
}

const publicCapacity: PersonKindValue[] = ['alderperson', 'official', 'staff', 'lobbyist'];
const privateCapacity: PersonKindValue[] = ['resident', 'organization_rep'];

/** Kinds of people the people routes show this actor. */
export function visiblePersonKinds(actor: Actor): PersonKindValue[] {
  return seesPrivatePeople(actor) ? [...publicCapacity, ...privateCapacity] : [...publicCapacity];
}

/** Speakers whose testimony this actor sees (officials, staff and lobbyists testify in public). */
export function visibleSpeakerKinds(actor: Actor): ('official' | 'staff' | 'lobbyist' | 'resident' | 'organization_rep')[] {
  const base = ['official', 'staff', 'lobbyist'] as const;
  return seesPrivatePeople(actor) ? [...base, 'resident', 'organization_rep'] : [...base];
}

/** Who may be put on a target list: the people who vote or decide (alderpersons and officials). */
export const targetKinds: PersonKindValue[] = ['alderperson', 'official'];

/** Who may be followed: people acting in a public capacity. */
export const followablePersonKinds: PersonKindValue[] = ['alderperson', 'official', 'lobbyist'];

/** The `by` of a stance history entry: the person and the credential they used. */
export function historyAuthor(actor: Actor) {
  return {
    account_id: actor.account.id,
    account_name: actor.account.name ?? actor.account.email,
    credential_type: actor.credential.type,
    credential_id: actor.credential.id,
  };
}

/** A source other than the route's own is accepted only from the dashboard's signed-in session. */
export function stanceSource(actor: Actor, routeSource: StanceSource, asked: StanceSource | undefined): StanceSource {
  if (asked === 'dashboard' && actor.credential.type === 'session') return 'dashboard';
  return routeSource;
}
