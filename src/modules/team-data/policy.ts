// What this actor may do to this object (house style, gate 3). Pure functions: the services call
// them before any read of private data or any side effect. Another team's object is never
// visible, so it is not_found, never forbidden; someone else's note of the same team is forbidden.
import type { Actor } from '../../kernel/actor.ts';
import type { Call } from '../../kernel/catalogue.ts';
import { AppError } from '../../kernel/errors.ts';
import { personKinds, speakerKinds } from '../public-data/index.ts';
import type { PersonKindValue, SpeakerKind, StanceSource } from './schema.ts';

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

/** Residents and organization representatives: private people, seen only with people.private.read. */
const privateCapacity: readonly PersonKindValue[] = ['resident', 'organization_rep'];
const publicCapacity: readonly PersonKindValue[] = personKinds.filter((k) => !privateCapacity.includes(k));

/** Kinds of people the people routes show this actor. */
export function visiblePersonKinds(actor: Actor): PersonKindValue[] {
  return seesPrivatePeople(actor) ? [...publicCapacity, ...privateCapacity] : [...publicCapacity];
}

/** Speakers whose testimony this actor sees (officials, staff and lobbyists testify in public). */
export function visibleSpeakerKinds(actor: Actor): SpeakerKind[] {
  const visible = visiblePersonKinds(actor);
  return speakerKinds.filter((k) => visible.includes(k));
}

/** Who may be put on a target list: the people who vote or decide (alderpersons and officials). */
export const targetKinds: PersonKindValue[] = ['alderperson', 'official'];

/** Who may be followed: people acting in a public capacity. */
export const followablePersonKinds: PersonKindValue[] = ['alderperson', 'official', 'lobbyist'];

/** The `by` of a stance history entry: the person and the credential they used. */
export function historyAuthor(actor: Actor) {
  const type = actor.credential.type;
  // Writes need a credential: a website visitor is refused at the access check long before this,
  // and the operator (the CLI) acts for no team.
  if (type === 'visitor' || type === 'operator') throw new Error(`A ${type} writes no stance history.`);
  return {
    account_id: actor.account.id,
    account_name: actor.account.name ?? actor.account.email,
    credential_type: type,
    credential_id: actor.credential.id,
  };
}

/** What made a stance change: the dashboard's own pages, else the v2 route family that was called. */
export function stanceSource(call: Call, routeSource: StanceSource): StanceSource {
  return call.surface === 'dashboard' ? 'dashboard' : routeSource;
}
