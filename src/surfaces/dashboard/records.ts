// The public records a person can act on where they read them (a bill, a person, a committee, a
// meeting), and who "they" are: the session's own actor and one actor per team, the same Actors a
// v2 request with the session gets. Everything is performed through the catalogue (ctx.performer),
// as the website visitor for the public record and as the person for their own data.
import type { OperationId, OperationInput, OperationOutput } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { type Actor, visitor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { SignedIn } from '../web/security.ts';

export const recordTypes = ['matter', 'person', 'body', 'meeting'] as const;
export type RecordType = (typeof recordTypes)[number];

export interface PublicRecord {
  type: RecordType;
  /** Canonical: a bill's record number as the source spells it, else the record's id. */
  ref: string;
  title: string;
  /** Its public page. */
  path: string;
  /** How a follow names it; a meeting cannot be followed. */
  followType: 'legislation' | 'person' | 'body' | null;
}

export type Perform = <Id extends OperationId>(id: Id, input: OperationInput<Id>) => Promise<OperationOutput<Id>>;

/** Performs as `actor` through the same gates as every surface; the website's own pages are not counted. */
export function performer(ctx: AppContext, actor: Actor): Perform {
  return async (id, input) => (await ctx.performer.perform(actor, id, input, { call: { surface: 'dashboard' }, count: false })).result as never;
}

/** The record behind `/act/{type}/{ref}`: 400 for an unknown type, 404 for an unknown record. */
export async function publicRecord(ctx: AppContext, type: string, ref: string): Promise<PublicRecord> {
  const read = performer(ctx, visitor);
  const at = (prefix: string, id: string) => `/${prefix}/${encodeURIComponent(id)}`;
  switch (type) {
    case 'matter': {
      const m = await read('matters.read', { record: ref });
      return { type, ref: m.recordNumber, title: `${m.recordNumber}: ${m.title}`, path: at('matters', m.recordNumber), followType: 'legislation' };
    }
    case 'person': {
      const p = await read('people.public.read', { id: ref });
      return { type, ref: p.id, title: p.name, path: at('people', p.id), followType: 'person' };
    }
    case 'body': {
      const b = await read('bodies.read', { id: ref });
      return { type, ref: b.id, title: b.name, path: at('bodies', b.id), followType: 'body' };
    }
    case 'meeting': {
      const m = await read('meetings.read', { id: ref });
      return { type, ref: m.id, title: `${m.bodyName}, ${m.startTime.slice(0, 10)}`, path: at('meetings', m.id), followType: null };
    }
    default:
      throw new AppError('invalid_request', `Unknown kind of record "${type}": one of ${recordTypes.join(', ')}.`);
  }
}

export type TeamActor = Actor & { team: NonNullable<Actor['team']> };

/** The person's own actor and one per team they are in. */
export async function actorsOf(ctx: AppContext, session: SignedIn): Promise<{ personal: Actor; teams: TeamActor[] }> {
  const memberships = await ctx.services.accounts.memberships(session.actor.account.id);
  const teams = await Promise.all(memberships.map((m) => ctx.services.credentials.actingForTeam(session, m.teamId)));
  return { personal: session.actor, teams };
}

/** The follow of `record` among a list of follows, if any (record numbers compare without letter case). */
export function followOf<F extends { id: string; type: string; refId: string }>(follows: readonly F[], record: PublicRecord): F | null {
  if (!record.followType) return null;
  const ref = record.ref.toLowerCase();
  return follows.find((f) => f.type === record.followType && f.refId.toLowerCase() === ref) ?? null;
}

/** A read whose refusal (a missing feature, not found) means "nothing to show", not a failed page. */
export async function orNull<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof AppError && err.status < 500) return null;
    throw err;
  }
}
