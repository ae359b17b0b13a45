// Personal follows (/me/follows) and team follows (/team/follows). Each follow is resolved
// against the public data before it is stored: an unknown record number, person or body is 404.
import type { Actor } from '../../kernel/actor.ts';
import { AppError } from '../../kernel/errors.ts';
import type { Kit } from './kit.ts';
import * as policy from './policy.ts';
import { presentFollow } from './presenters.ts';
import * as repo from './repo.ts';
import { type FollowInput, type FollowOut, type ListInput, MAX_LABEL } from './schema.ts';

export type FollowPage = { data: FollowOut[]; meta: { nextCursor: string | null } };

/**
 * The key a change to the follows of one record is heard under (migration 0150's trigger on
 * follows writes the same `follows:<type>:<ref_id>`): what a kept follower count depends on.
 */
export const followersKey = (type: FollowInput['type'], refId: string) => `follows:${type}:${refId}`;

export function createFollowsService(kit: Kit) {
  const { db, directory } = kit;

  /** The canonical refId and a default label for what is followed; 404 when it does not exist. */
  async function resolve(input: FollowInput): Promise<{ refId: string; label: string }> {
    const refId = input.refId.trim();
    if (!refId) throw new AppError('invalid_request', 'refId must not be blank.');
    switch (input.type) {
      case 'legislation': {
        const m = await kit.matter(refId);
        return { refId: m.recordNumber, label: `${m.recordNumber}: ${m.title}` };
      }
      case 'person': {
        const p = await directory.person(refId, policy.followablePersonKinds);
        if (!p) throw new AppError('not_found', `No alderperson, official or lobbyist with id "${refId}".`);
        return { refId: p.id, label: p.name };
      }
      case 'body': {
        const b = await directory.body(refId);
        if (!b) throw new AppError('not_found', `No body (council or committee) with id "${refId}".`);
        return { refId: b.id, label: b.name };
      }
      case 'search':
        return { refId, label: refId };
    }
  }

  async function create(owner: repo.Owner, actor: Actor, input: FollowInput): Promise<FollowOut> {
    const { refId, label: fallback } = await resolve(input);
    const label = (input.label?.trim() || fallback).slice(0, MAX_LABEL);
    const row = await repo.insertFollow(db, { id: kit.newId('fol'), owner, type: input.type, refId, label, createdBy: actor.account.id, at: kit.clock.now() });
    if (!row) {
      const existing = await repo.findFollowByRef(db, owner, input.type, refId);
      throw new AppError('conflict', `This ${input.type} is already followed (follow ${existing?.id ?? 'exists'}).`);
    }
    return presentFollow(row);
  }

  async function list(owner: repo.Owner, input: ListInput): Promise<FollowPage> {
    const rows = await repo.listFollows(db, owner, input.limit, repo.decodeCursor(input.cursor));
    return repo.page(rows, input.limit, presentFollow);
  }

  async function remove(owner: repo.Owner, id: string): Promise<{ id: string; deleted: true }> {
    if (!(await repo.deleteFollow(db, owner, id))) throw new AppError('not_found', `No follow "${id}".`);
    return { id, deleted: true };
  }

  return {
    /**
     * How many people and teams follow a record: a number only, never who (the public pages show
     * it). The record is resolved first, so an unknown one is 404 and a record number counts in
     * its canonical form, as follows store it.
     */
    async followerCount(input: FollowInput): Promise<{ type: FollowInput['type']; refId: string; count: number }> {
      const { refId } = await resolve(input);
      return { type: input.type, refId, count: await repo.countFollowers(db, input.type, refId) };
    },
    personalFollows: {
      async list(actor: Actor, input: ListInput): Promise<FollowPage> {
        return list({ accountId: policy.personalAccountOf(actor) }, input);
      },
      async create(actor: Actor, input: FollowInput): Promise<FollowOut> {
        return create({ accountId: policy.personalAccountOf(actor) }, actor, input);
      },
      async remove(actor: Actor, input: { id: string }) {
        return remove({ accountId: policy.personalAccountOf(actor) }, input.id);
      },
    },
    teamFollows: {
      async list(actor: Actor, input: ListInput): Promise<FollowPage> {
        return list({ teamId: policy.teamOf(actor) }, input);
      },
      async create(actor: Actor, input: FollowInput): Promise<FollowOut> {
        const teamId = policy.teamOf(actor);
        const follow = await create({ teamId }, actor, input);
        await kit.emit({ teamId, kind: 'follow', action: 'created', id: follow.id });
        return follow;
      },
      async remove(actor: Actor, input: { id: string }) {
        const teamId = policy.teamOf(actor);
        const done = await remove({ teamId }, input.id);
        await kit.emit({ teamId, kind: 'follow', action: 'deleted', id: input.id });
        return done;
      },
    },
  };
}
