// Reads of many records' parts at once, for nested reads (GraphQL loaders): one query per part for
// any number of records, answered in the order of the ids asked for (an unknown id gets an empty
// part, or null for a record). Lists per record page exactly as the record's own list does.
import type { Static } from 'typebox';
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Page } from './cursor.ts';
import { paginateEach } from './keyset.ts';
import { publicPeopleKinds } from './policy.ts';
import * as p from './presenters.ts';
import { presentMeetingDetail } from './presenters-meetings.ts';
import { bodyActionsQuery, bodyActionsSortPlan } from './repo-actions.ts';
import { actionsOf, mattersByIds, meetingsByIds, rollCallsOf, sponsorsOf, votesOfRollCalls } from './repo-batch.ts';
import { matterListQuery, matterSortPlan } from './repo-matters.ts';
import { meetingDetailQuery } from './repo-meetings.ts';
import { committeeListQuery, committeeSortPlan } from './repo-money.ts';
import { bodyDetailQuery, personDetailQuery } from './repo-people.ts';
import { periodSortPlan, reportListQuery } from './repo-lobbying.ts';
import { voteListQuery, votePageRows, votesSortPlan } from './repo-votes.ts';
import type * as s from './schema.ts';

type Row = Record<string, any>;

/** Rows tagged with their record (`of`) → one list per id, in the order of `ids`. */
function group<T>(ids: readonly string[], rows: Row[], present: (row: Row) => T): T[][] {
  const by = new Map<string, T[]>(ids.map((id) => [id, []]));
  for (const { of, ...row } of rows) by.get(of)?.push(present(row));
  return ids.map((id) => by.get(id)!);
}

/** Rows keyed by `id` → one record (or null) per id, in the order of `ids`. */
function pick<T>(ids: readonly string[], rows: Row[], present: (row: Row) => T): (T | null)[] {
  const by = new Map(rows.map((r) => [r.id as string, r]));
  return ids.map((id) => {
    const row = by.get(id);
    return row ? present(row) : null;
  });
}

const same = <T>(row: Row) => row as T;

/** A roll call, with its votes when they were asked for. */
export type RollCallWithVotes = s.RollCallOut & { votes?: s.RollCallDetailOut['votes'] };
const presentWithVotes = (row: Row): RollCallWithVotes => ({ ...p.presentRollCall(row), votes: row.votes });

export interface PageArgs {
  limit: number;
  cursor?: string | undefined;
}

export function createBatchService(deps: ModuleDeps) {
  const { db } = deps;
  const none = async <T>(ids: readonly string[], load: () => Promise<T>) => (ids.length === 0 ? null : load());
  return {
    batch: {
      async sponsors(ids: readonly string[]): Promise<s.MatterDetailOut['sponsors'][]> {
        return group(ids, (await none(ids, () => sponsorsOf(db, ids))) ?? [], same<s.MatterDetailOut['sponsors'][number]>);
      },
      async actions(ids: readonly string[]): Promise<s.MatterDetailOut['actions'][]> {
        return group(ids, (await none(ids, () => actionsOf(db, ids))) ?? [], same<s.MatterDetailOut['actions'][number]>);
      },
      /** Roll calls on many matters; with every vote of each when `withVotes`. */
      async rollCallsOfMatters(ids: readonly string[], withVotes = false): Promise<RollCallWithVotes[][]> {
        return group(ids, (await none(ids, () => rollCallsOf(db, 'matter', ids, withVotes))) ?? [], withVotes ? presentWithVotes : p.presentRollCall);
      },
      async rollCallsOfMeetings(ids: readonly string[], withVotes = false): Promise<RollCallWithVotes[][]> {
        return group(ids, (await none(ids, () => rollCallsOf(db, 'meeting', ids, withVotes))) ?? [], withVotes ? presentWithVotes : p.presentRollCall);
      },
      async votesOfRollCalls(ids: readonly string[]): Promise<s.RollCallDetailOut['votes'][]> {
        return group(ids, (await none(ids, () => votesOfRollCalls(db, ids))) ?? [], same<s.RollCallDetailOut['votes'][number]>);
      },
      async matters(ids: readonly string[]): Promise<(s.MatterOut | null)[]> {
        return pick(ids, (await none(ids, () => mattersByIds(db, ids))) ?? [], p.presentMatter);
      },
      async meetings(ids: readonly string[]): Promise<(s.MeetingOut | null)[]> {
        return pick(ids, (await none(ids, () => meetingsByIds(db, ids))) ?? [], p.presentMeeting);
      },
      /** Agenda, attendance, documents, roll calls, public testimony and insights of many meetings. */
      async meetingDetails(ids: readonly string[]): Promise<(s.MeetingDetailOut | null)[]> {
        return pick(ids, (await none(ids, () => meetingDetailQuery(db).where('g.id', 'in', ids).execute())) ?? [], presentMeetingDetail);
      },
      /** Terms and committee memberships of many public people. */
      async personDetails(ids: readonly string[]): Promise<(s.PersonDetailOut | null)[]> {
        return pick(ids, (await none(ids, () => personDetailQuery(db, publicPeopleKinds).where('p.id', 'in', ids).execute())) ?? [], p.presentPersonDetail);
      },
      /** Members of many bodies. */
      async bodyDetails(ids: readonly string[]): Promise<(s.BodyDetailOut | null)[]> {
        return pick(ids, (await none(ids, () => bodyDetailQuery(db).where('b.id', 'in', ids).execute())) ?? [], p.presentBodyDetail);
      },
      /** Each body's actions on matters, newest first: the page `bodies.actions.list` with the body's id gives. */
      actionsOfBodies(ids: readonly string[], page: PageArgs): Promise<Page<s.BodyActionOut>[]> {
        return paginateEach(db, ids, (body) => bodyActionsQuery(db, { bodyId: body as unknown as string }), bodyActionsSortPlan, page, p.presentBodyAction);
      },
      /** Each person's votes, newest first: the page `votes.list` with `person` gives. */
      votesOfPeople(ids: readonly string[], page: PageArgs): Promise<Page<s.VoteOut>[]> {
        return paginateEach(
          db,
          ids,
          (person) => voteListQuery(db, { person: person as unknown as string }),
          votesSortPlan,
          page,
          p.presentVote,
          (paged) => votePageRows(db, paged),
        );
      },
      /** Matters each person sponsored, newest first: the page `matters.list` with `sponsor` gives. */
      sponsoredMatters(ids: readonly string[], page: PageArgs): Promise<Page<s.MatterOut>[]> {
        return paginateEach(
          db,
          ids,
          (sponsor) => matterListQuery(db, { sponsor: sponsor as unknown as string }, '-introduced'),
          matterSortPlan('-introduced'),
          page,
          p.presentMatter,
        );
      },
      /** Each alderperson's campaign committees: the page `money.committees.list` with `person` gives. */
      committeesOfPeople(ids: readonly string[], page: PageArgs): Promise<Page<s.CommitteeOut>[]> {
        return paginateEach(
          db,
          ids,
          (person) => committeeListQuery(db, { person: person as unknown as string }),
          committeeSortPlan('name'),
          page,
          p.presentCommittee,
        );
      },
      /** Lobbying activity naming each official: the page `lobbying.activity.list` with `official` gives. */
      lobbyingContacts(ids: readonly string[], page: PageArgs): Promise<Page<Static<typeof s.Activity>>[]> {
        return paginateEach(
          db,
          ids,
          (official) => reportListQuery(db, 'lobbying_activity', { official: official as unknown as string }),
          periodSortPlan('-period'),
          page,
          p.presentReport as (row: Row) => Static<typeof s.Activity>,
        );
      },
    },
  };
}

export type BatchService = ReturnType<typeof createBatchService>;
