// Public-data reads. Everything here is public: there is no per-object policy beyond which
// people are public (policy.ts), so the services take only their input.
import type { CacheChannel } from '../../kernel/coherence.ts';
import { AppError } from '../../kernel/errors.ts';
import { preparedStatement } from '../../kernel/db.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Page } from './cursor.ts';
import { paginate } from './keyset.ts';
import { createKeptSearches } from './kept-searches.ts';
import { publicPeopleKinds } from './policy.ts';
import * as p from './presenters.ts';
import { presentMeetingDetail } from './presenters-meetings.ts';
import { bodyActionsQuery, bodyActionsSortPlan, bodyExists } from './repo-actions.ts';
import {
  matterDetail,
  matterIdByRecord,
  matterListQuery,
  matterPageRows,
  matterParts,
  matterSortPlan,
  preparedSearch,
  recordNumberPattern,
} from './repo-matters.ts';
import { meetingDetail, meetingListQuery, meetingSortPlan } from './repo-meetings.ts';
import { bodyDetail, bodyListQuery, bodySortPlan, personDetail, personListQuery, personSortPlan } from './repo-people.ts';
import { search } from './repo-search.ts';
import type { RollCallShape } from './repo-sql.ts';
import { rollCallDetail, rollCallListQuery, rollCallSortPlan, voteListQuery, votePageRows, votesSortPlan } from './repo-votes.ts';
import type * as s from './schema.ts';
import { matterSortOf } from './schema-legislation.ts';
import { searchTypes } from './schema-search.ts';
import { createPostingsPlanner } from './search-postings.ts';
import { searchQueryText } from './search-text.ts';
import { createVotesUpdatedFloor } from './updated-floor.ts';
import { createVocabulary } from './vocabulary.ts';

export const notFound = (what: string, id: string) => new AppError('not_found', `No ${what} "${id}".`);

/** A from/to pair must be in order; both are already valid dates (schema format "date"). */
export function checkRange(from: string | undefined, to: string | undefined, names = 'from/to'): void {
  if (from !== undefined && to !== undefined && from > to) throw new AppError('invalid_request', `The date range ${names} is empty: ${from} is after ${to}.`);
}

/** `searches`: the public-data channel the kept search pages (./kept-searches.ts) and the votes' earliest update (./updated-floor.ts) are coherent with. */
export function createLegislationService(deps: ModuleDeps, searches: CacheChannel) {
  const { db } = deps;
  const vocabulary = createVocabulary(db);
  const kept = createKeptSearches(searches);
  const planner = createPostingsPlanner(db);
  const votesFloor = createVotesUpdatedFloor(db, searches);
  /** Which postings a search by relevance walks (./search-postings.ts); null: the plan without them. */
  const postingsFor = async (q: string) => {
    const text = recordNumberPattern.test(q.trim()) ? '' : searchQueryText(q);
    return text === '' ? null : planner.plan(text);
  };
  return {
    /** Memory the kept search pages count now (the SIGUSR2 memory report). */
    keptSearchBytes: () => kept.bytes(),
    matters: {
      /**
       * `parts`: the sponsors, actions and roll calls (with their votes) of each matter, read in the
       * same statement (a nested read's one round trip); the page is the same as without them.
       */
      async list(q: s.MattersInput, parts: readonly MatterPart[] = [], rollCallShape: RollCallShape = 'full'): Promise<Page<s.MatterOut & MatterPartsOut>> {
        checkRange(q.introduced_from, q.introduced_to, 'introduced_from/introduced_to');
        const sort = matterSortOf(q);
        if (sort === 'relevance' && q.q === undefined) throw new AppError('invalid_request', 'sort=relevance needs a search query q.');
        const type = q.type === undefined ? undefined : await vocabulary.canonical('type', 'type', q.type);
        const status = q.status === undefined ? undefined : await vocabulary.canonical('status', 'status', q.status);
        const filters = {
          type,
          status,
          sponsor: q.sponsor,
          body: q.body,
          introducedFrom: q.introduced_from,
          introducedTo: q.introduced_to,
          q: q.q,
          updatedSince: q.updated_since,
        };
        const page = async () => {
          const postings = sort === 'relevance' && q.q !== undefined ? await postingsFor(q.q) : null;
          const qb = matterListQuery(db, filters, sort, undefined, postings);
          const present = parts.length === 0 ? p.presentMatter : (row: Record<string, any>) => ({ ...p.presentMatter(row), ...presentParts(row, parts) });
          if (sort === 'relevance') {
            // Ranked by id and rank; the page's columns, and its parts, read for its rows only.
            const prepared = parts.length === 0 && preparedSearch(filters, postings);
            const rows = (paged: unknown) => {
              const page = matterPageRows(db, paged).select(partSelections(parts, rollCallShape));
              return prepared ? page.modifyFront(preparedStatement) : page;
            };
            return paginate(qb, matterSortPlan(sort), q, present, rows);
          }
          if (parts.length === 0) return paginate(qb, matterSortPlan(sort), q, present);
          // Unfiltered, the nested read's plan is the same whatever its cursor: PostgreSQL plans it
          // once per connection (a filter's value can change the best plan, so a filtered read is planned each time).
          const unfiltered = Object.values(filters).every((v) => v === undefined);
          const withParts = qb.select(partSelections(parts, rollCallShape));
          return paginate(unfiltered ? withParts.modifyFront(preparedStatement) : withParts, matterSortPlan(sort), q, present);
        };
        if (q.q === undefined) return page();
        // A search: every spelling of the query shares one kept page while the record is unchanged.
        const { q: text, ...rest } = filters;
        return kept.answer('matters', text!, { ...rest, sort, limit: q.limit, cursor: q.cursor, parts, rollCallShape }, page);
      },
      async get(record: string): Promise<s.MatterDetailOut> {
        const row = await matterDetail(db, record);
        if (!row) throw notFound('matter with record number', record);
        return p.presentMatterDetail(row);
      },
    },
    rollCalls: {
      async list(q: s.RollCallsInput): Promise<Page<s.RollCallOut>> {
        checkRange(q.from, q.to);
        const matterId = q.matter === undefined ? undefined : ((await matterIdByRecord(db, q.matter)) ?? '');
        const qb = rollCallListQuery(db, { ...q, matterId, updatedSince: q.updated_since });
        return paginate(qb, rollCallSortPlan(q.sort ?? '-date'), q, p.presentRollCall);
      },
      async get(id: string): Promise<s.RollCallDetailOut> {
        const row = await rollCallDetail(db, id);
        if (!row) throw notFound('roll call', id);
        return p.presentRollCallDetail(row);
      },
    },
    votes: {
      async list(q: s.VotesInput): Promise<Page<s.VoteOut>> {
        checkRange(q.from, q.to);
        // An unknown record number matches no votes (an empty page), as an unknown person does.
        const matterId = q.matter === undefined ? undefined : ((await matterIdByRecord(db, q.matter)) ?? '');
        // An updated_since no later than every vote's keeps them all: the statement goes without it (./updated-floor.ts).
        const updatedSince = q.updated_since !== undefined && (await votesFloor.covers(q.updated_since)) ? undefined : q.updated_since;
        const qb = voteListQuery(db, { ...q, matterId, rollCall: q.roll_call, updatedSince });
        // A person's votes are read the same way whoever the person is (their index in date order,
        // then the page's look-ups): planned once per connection, as planning the four-table join
        // took as long as running it.
        const rows = (paged: unknown) => (q.person !== undefined ? votePageRows(db, paged).modifyFront(preparedStatement) : votePageRows(db, paged));
        return paginate(qb, votesSortPlan, q, p.presentVote, rows);
      },
    },
    meetings: {
      async list(q: s.MeetingsInput): Promise<Page<s.MeetingOut>> {
        checkRange(q.from, q.to);
        const qb = meetingListQuery(db, { ...q, updatedSince: q.updated_since });
        return paginate(qb, meetingSortPlan(q.sort ?? '-date'), q, p.presentMeeting);
      },
      async get(id: string): Promise<s.MeetingDetailOut> {
        const row = await meetingDetail(db, id);
        if (!row) throw notFound('meeting', id);
        return presentMeetingDetail(row);
      },
    },
    bodies: {
      async list(q: s.BodiesInput): Promise<Page<s.BodyOut>> {
        const qb = bodyListQuery(db, stripUndefined({ kind: q.kind, active: q.active, q: q.q, updatedSince: q.updated_since }));
        return paginate(qb, bodySortPlan(q.sort ?? 'name'), q, p.presentBody);
      },
      async get(id: string): Promise<s.BodyDetailOut> {
        const row = await bodyDetail(db, id);
        if (!row) throw notFound('body', id);
        return p.presentBodyDetail(row);
      },
      async actions(q: s.BodyActionsInput): Promise<Page<s.BodyActionOut>> {
        checkRange(q.from, q.to);
        if (!(await bodyExists(db, q.id))) throw notFound('body', q.id);
        const qb = bodyActionsQuery(db, { bodyId: q.id, from: q.from, to: q.to, updatedSince: q.updated_since });
        return paginate(qb, bodyActionsSortPlan, q, p.presentBodyAction);
      },
    },
    people: {
      async list(q: s.PeopleInput): Promise<Page<s.PersonOut>> {
        const qb = personListQuery(db, { ...q, updatedSince: q.updated_since });
        return paginate(qb, personSortPlan(q.sort ?? 'name'), q, p.presentPerson);
      },
      async get(id: string): Promise<s.PersonDetailOut> {
        const row = await personDetail(db, id, publicPeopleKinds);
        if (!row) throw notFound('person', id);
        return p.presentPersonDetail(row);
      },
    },
    async search(q: s.SearchInput): Promise<Page<s.SearchResultOut>> {
      const input = { types: q.type ? [q.type] : searchTypes, limit: q.limit, cursor: q.cursor, updatedSince: q.updated_since };
      return kept.answer('search', q.q, input, async () => search(db, { q: q.q, ...input }, input.types.includes('matter') ? await postingsFor(q.q) : null));
    },
  };
}

/**
 * Parts of a matter a list may carry: `votes` the roll calls with their votes, `voteValues` the
 * roll calls with each vote's person id and value only (for a reader that asks for no names).
 */
export const matterPartNames = ['sponsors', 'actions', 'rollCalls', 'votes', 'voteValues'] as const;
export type MatterPart = (typeof matterPartNames)[number];
export type MatterPartsOut = Partial<Pick<s.MatterDetailOut, 'sponsors' | 'actions'>> & {
  /** Each roll call with all its fields, or its core fields only. */
  rollCalls?: (Partial<s.RollCallOut> & { votes?: Partial<s.RollCallDetailOut['votes'][number]>[] })[];
};

/** `rollCallShape`: each roll call with all its fields, or its core (./repo-sql.ts). */
function partSelections(parts: readonly MatterPart[], rollCallShape: RollCallShape) {
  const selections = [];
  if (parts.includes('sponsors')) selections.push(matterParts.sponsors().as('sponsors'));
  if (parts.includes('actions')) selections.push(matterParts.actions().as('actions'));
  const votes = parts.includes('votes') ? 'all' : parts.includes('voteValues') ? 'values' : parts.includes('rollCalls') ? 'none' : undefined;
  if (votes) selections.push(matterParts.rollCalls(votes, rollCallShape).as('roll_calls'));
  return selections;
}

function presentParts(row: Record<string, any>, parts: readonly MatterPart[]): MatterPartsOut {
  const out: MatterPartsOut = {};
  if (parts.includes('sponsors')) out.sponsors = row.sponsors;
  if (parts.includes('actions')) out.actions = row.actions;
  if (row.roll_calls) out.rollCalls = row.roll_calls.map((x: { j: s.RollCallOut }) => x.j);
  return out;
}

export function stripUndefined<T extends Record<string, unknown>>(o: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as never;
}
