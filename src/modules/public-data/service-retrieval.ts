// Retrieval over the public record for the answers module: the structured look-ups the questions
// people ask need (names, wards, committees, a body's last sitting, votes, contributors, lobbying
// contacts) and ranked passages across every kind of record. Everything returned is public: the
// same people kinds as the public routes, and testimony only where given in a public capacity.
import { sql } from 'kysely';
import type { ModuleDeps } from '../../kernel/deps.ts';
import * as agg from './repo-aggregates.ts';
import * as r from './repo-retrieval.ts';
import type { WordsHeld } from './repo-retrieval.ts';
import { matterDetail } from './repo-matters.ts';
import { mostAlike } from './repo-record.ts';
import { wardAt } from './wards.ts';
import { ALIKE_LIMIT, ALIKE_MIN } from './schema-record.ts';
import { rollCallDetail } from './repo-votes.ts';
import { presentMatterDetail, presentRollCallDetail } from './presenters.ts';
import type { MatterDetailOut, RollCallDetailOut } from './schema.ts';

export type PassageRow = r.PassageRow;

export interface NamedPerson {
  id: string;
  name: string;
  kind: string;
  ward: number | null;
  current: boolean;
}

export interface BodyRef {
  id: string;
  name: string;
  abbreviation: string | null;
  kind: 'council' | 'committee' | 'joint_committee' | 'other';
  active: boolean;
}

/** A body as actions name it: its ids and the names the source used for it. */
export interface BodyKey {
  ids: readonly string[];
  names: readonly string[];
}

export interface DayRange {
  from?: string | undefined;
  to?: string | undefined;
}

export function createRetrieval(deps: Pick<ModuleDeps, 'db'>) {
  const { db } = deps;
  return {
    /** Public people whose names hold any of these lower-case words. */
    peopleNamed: (terms: readonly string[], limit = 300): Promise<NamedPerson[]> => r.peopleNamed(db, terms, limit),
    /** The current alderperson(s) of a ward. */
    async aldersOfWard(ward: number): Promise<NamedPerson[]> {
      return db
        .selectFrom('people')
        .select(['id', 'name', 'kind', 'ward', 'current'])
        .where('kind', '=', 'alderperson')
        .where('ward', '=', ward)
        .orderBy('current', 'desc')
        .orderBy('sort_name')
        .limit(5)
        .execute();
    },
    /** Every alderperson the record holds as serving now, by ward. */
    currentAlders(): Promise<NamedPerson[]> {
      return db
        .selectFrom('people')
        .select(['id', 'name', 'kind', 'ward', 'current'])
        .where('kind', '=', 'alderperson')
        .where('current', '=', true)
        .orderBy('ward')
        .orderBy('sort_name')
        .execute();
    },
    /** The start of each person's first term for a ward, where the record holds one. */
    async firstTerms(personIds: readonly string[]): Promise<Map<string, string>> {
      if (personIds.length === 0) return new Map();
      const rows = await db
        .selectFrom('person_terms')
        .select(['person_id'])
        .select(sql<string>`min(start_date)::text`.as('since'))
        .where('person_id', 'in', [...personIds])
        .where('ward', 'is not', null)
        .where('start_date', 'is not', null)
        .groupBy('person_id')
        .execute();
      return new Map(rows.map((row) => [row.person_id, row.since]));
    },
    bodies: (): Promise<BodyRef[]> => r.allBodies(db),
    /** A matter by record number (any letter case) with sponsors, actions and roll calls, or null. */
    async matter(record: string): Promise<MatterDetailOut | null> {
      const row = await matterDetail(db, record);
      return row ? presentMatterDetail(row) : null;
    },
    /** A roll call with every person's vote, or null. */
    async rollCall(id: string): Promise<RollCallDetailOut | null> {
      const row = await rollCallDetail(db, id);
      return row ? presentRollCallDetail(row) : null;
    },
    sponsoredBy: (personId: string, range: DayRange, limit: number) => r.sponsoredBy(db, personId, range, limit),
    /** Matters holding at least `k` of these lower-case words, most words first. */
    mattersMatching: (terms: readonly string[], k: number, range: DayRange, limit: number, votedOnly = false) =>
      r.mattersMatching(db, terms, k, range, limit, votedOnly),
    /** How many matters hold each of these words (or `a|b` groups). */
    matterWordCounts: (terms: readonly string[]) => r.matterWordCounts(db, terms),
    votesOn: (matterIds: readonly string[], personIds: readonly string[]) => r.votesOn(db, matterIds, personIds),
    /** A person's latest votes in the range, of these values only when given ("Nay"; "Absent" and "Not Voting"). */
    recentVotes: (personId: string, range: DayRange, limit: number, values: readonly string[] = []) => r.recentVotes(db, personId, range, limit, values),
    /** The body's latest day of business (or, unless `businessOnly`, of a held meeting) on or before `day`. */
    lastSitting: (body: BodyKey, day: string, businessOnly = false) => r.lastSitting(db, body, day, businessOnly),
    actionsExtent: (body: BodyKey) => r.actionsExtent(db, body),
    actionsBetween: (body: BodyKey, range: { from: string; to: string }, limit: number, named?: RegExp) => r.actionsBetween(db, body, range, limit, named),
    meetingsOn: (bodyIds: readonly string[], days: readonly string[]) => r.meetingsOn(db, bodyIds, days),
    /** Meetings of the bodies from a day on (`next`) or up to a day (`last`), nearest first. */
    meetings: (bodyIds: readonly string[], day: string, direction: 'next' | 'last', limit: number) => r.meetingsAround(db, bodyIds, day, direction, limit),
    /** How many meetings of the bodies the range holds, and the span of all their meetings in the record. */
    meetingCount: (bodyIds: readonly string[], range: DayRange) => r.meetingCount(db, bodyIds, range),
    /** The bodies' meetings in the range, earliest first (each row carries how many there are in all). */
    meetingsIn: (bodyIds: readonly string[], range: DayRange, limit: number) => r.meetingsIn(db, bodyIds, range, limit),
    committeesFor: (personIds: readonly string[], terms: readonly string[]) => r.committeesFor(db, personIds, terms),
    topContributors: (committeeIds: readonly string[], range: DayRange, limit: number) => r.topContributors(db, committeeIds, range, limit),
    receiptTotals: (committeeIds: readonly string[], range: DayRange) => r.receiptTotals(db, committeeIds, range),
    largestReceipts: (committeeIds: readonly string[], range: DayRange, limit: number) => r.largestReceipts(db, committeeIds, range, limit),
    lobbyistContacts: (personId: string, range: DayRange, limit: number) => r.lobbyistContacts(db, personId, range, limit),
    lobbyistContributions: (personId: string, range: DayRange, limit: number) => r.lobbyistContributions(db, personId, range, limit),
    /** Aggregates (repo-aggregates.ts): what the record can tell, and sums over it. */
    extents: () => agg.extents(db),
    sponsorshipsHeld: () => agg.sponsorshipsHeld(db),
    committeeRanking: (range: DayRange, limit: number) => agg.committeeRanking(db, range, limit),
    receiptsByYear: (committeeIds: readonly string[], range: DayRange) => agg.receiptsByYear(db, committeeIds, range),
    contributorRanking: (range: DayRange, limit: number, words: readonly string[] = []) => agg.contributorRanking(db, range, limit, words),
    receiptsTotal: (range: DayRange) => agg.receiptsTotal(db, range),
    lobbyistCompensation: (range: DayRange, limit: number, clientIds?: readonly string[]) => agg.lobbyistCompensation(db, range, limit, clientIds),
    clientCompensation: (range: DayRange, limit: number) => agg.clientCompensation(db, range, limit),
    clientsNamed: (words: readonly string[], limit: number) => agg.clientsNamed(db, words, limit),
    lobbyistGiving: (range: DayRange, limit: number) => agg.lobbyistGiving(db, range, limit),
    lobbyistMoneyByRecipient: (range: DayRange, limit: number) => agg.lobbyistMoneyByRecipient(db, range, limit),
    lobbyingContactsByOfficial: (range: DayRange, limit: number) => agg.lobbyingContactsByOfficial(db, range, limit),
    lobbyistGiftsByRecipient: (range: DayRange, limit: number) => agg.lobbyistGiftsByRecipient(db, range, limit),
    lobbyistGiftGiving: (range: DayRange, limit: number) => agg.lobbyistGiftGiving(db, range, limit),
    votingRecord: (personId: string, range: DayRange) => agg.votingRecordIn(db, personId, range),
    votingRecords: (range: DayRange, about: WordsHeld | null = null) => agg.votingRecordsIn(db, range, about),
    /** The ward (2023 boundaries) a point is in, or null: the same point-in-polygon as `wards.locate`. */
    wardAt: (lat: number, lon: number): number | null => wardAt(lat, lon),
    /** Who votes most like the person, as the person's page ranks them (over the whole record). */
    mostAlike: (personId: string) => mostAlike(db, personId, ALIKE_LIMIT, ALIKE_MIN),
    sponsorRanking: (range: DayRange, types: readonly string[], limit: number) => agg.sponsorRanking(db, range, types, limit),
    introducedIn: (range: DayRange, types: readonly string[], limit: number, about: WordsHeld | null = null) =>
      agg.introducedIn(db, range, types, limit, about),
    rollCallsIn: (range: DayRange, order: 'latest' | 'margin' | 'unanimous', limit: number) => agg.rollCallsIn(db, range, order, limit),
    agreement: (a: string, b: string, range: DayRange) => agg.agreement(db, a, b, range),
    votesOnRollCallsSplit: (a: string, b: string, range: DayRange) => agg.splitRollCalls(db, a, b, range),
    chairsOf: (bodyId: string) => agg.chairsOf(db, bodyId),
    chairRanking: (limit: number) => agg.chairRanking(db, limit),
    membershipsOf: (personId: string) => agg.membershipsOf(db, personId),
    agenda: (meetingId: string, limit: number) => agg.agendaItems(db, meetingId, limit),
    testimonyAt: (meetingId: string, limit: number) => agg.testimonyAt(db, meetingId, limit),
    lobbyistGifts: (personId: string, range: DayRange, limit: number) => r.lobbyistGifts(db, personId, range, limit),
    /** Ranked passages of every kind of record holding at least `k` of the words, at most `each` of a kind, best first. */
    passages: (terms: readonly string[], k: number, range: DayRange, each: number): Promise<PassageRow[]> => r.passages(db, terms, k, range, each),
  };
}

export type Retrieval = ReturnType<typeof createRetrieval>;
