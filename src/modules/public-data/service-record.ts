// A public person's record (votes, attendance, agreement with the majority, how far their
// legislation got) and a committee's largest contributors: summaries the website shows.
import { AppError } from '../../kernel/errors.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { publicPeopleKinds } from './policy.ts';
import { committeeIdsOf, councilComparison, mostAlike, sponsoredStatuses, votingRecord } from './repo-record.ts';
import { committeeAttendance, committeeTerms } from './repo-history.ts';
import { ALIKE_LIMIT, ALIKE_MIN } from './schema-record.ts';
import { topContributors } from './repo-retrieval.ts';
import type * as s from './schema.ts';
import { notFound } from './service.ts';

const share = (part: number, whole: number) => (whole > 0 ? Math.round((part / whole) * 1000) / 1000 : null);

export function createRecordService(deps: ModuleDeps) {
  const { db } = deps;
  return {
    async personRecord(id: string): Promise<s.PersonRecordOut> {
      const person = await db
        .selectFrom('people')
        .select('id')
        .where('id', '=', id)
        .where('kind', 'in', publicPeopleKinds as never)
        .executeTakeFirst();
      if (!person) throw notFound('person', id);
      const [v, sponsored, alike] = await Promise.all([votingRecord(db, id), sponsoredStatuses(db, id), mostAlike(db, id, ALIKE_LIMIT, ALIKE_MIN)]);
      return {
        personId: id,
        votes: {
          total: v.total,
          yea: v.yea,
          nay: v.nay,
          absent: v.absent,
          other: v.other,
          attendance: share(v.total - v.absent, v.total),
          decided: v.decided,
          withMajority: v.with_majority,
          alignment: share(v.with_majority, v.decided),
          inMinority: v.in_minority,
          firstDate: v.first,
          lastDate: v.last,
        },
        sponsored,
        mostAlike: alike.map((a) => ({
          personId: a.id,
          name: a.name,
          ward: a.ward,
          together: a.together,
          agreed: a.agreed,
          agreement: share(a.agreed, a.together)!,
        })),
      };
    },
    /** Every current alderperson side by side: attendance, agreement with the majority, minority votes, legislation. */
    async councilCompare(q: s.CouncilCompareInput): Promise<s.CouncilCompareOut> {
      const sort = q.sort ?? 'ward';
      const rows = await councilComparison(db, sort);
      return {
        data: rows.map((r) => ({
          personId: r.id,
          name: r.name,
          ward: r.ward,
          rollCalls: r.total,
          attended: r.total - r.absent,
          attendance: share(r.total - r.absent, r.total),
          decided: r.decided,
          withMajority: r.with_majority,
          alignment: share(r.with_majority, r.decided),
          inMinority: r.in_minority,
          sponsored: r.sponsored,
          passed: r.passed,
        })),
        meta: { sort },
      };
    },
    /** The Legistar-era committee history of a person or a body (DataMade's council-flow). */
    async committeeHistory(q: s.CommitteeHistoryInput): Promise<s.CommitteeHistoryOut> {
      if ((q.person === undefined) === (q.body === undefined)) throw new AppError('invalid_request', 'Give exactly one of person or body.');
      const [terms, attendance] = await Promise.all([committeeTerms(db, q), committeeAttendance(db, q)]);
      return {
        terms,
        attendance,
        source: 'DataMade council-flow (MIT), from its Open Civic Data API for Chicago: committee terms to 2019 and confirmed committee meetings 2011–2017',
      };
    },
    async topContributors(q: s.ContributorsInput): Promise<s.ContributorsOut> {
      if ((q.committee === undefined) === (q.person === undefined)) throw new AppError('invalid_request', 'Give exactly one of committee or person.');
      let ids: string[];
      if (q.committee !== undefined) {
        const found = await db.selectFrom('committees').select('id').where('id', '=', q.committee).executeTakeFirst();
        if (!found) throw notFound('committee', q.committee);
        ids = [found.id];
      } else {
        ids = await committeeIdsOf(db, q.person!);
      }
      const rows = ids.length ? await topContributors(db, ids, {}, q.limit) : [];
      return { data: rows.map((r) => ({ contributor: r.contributor, count: r.receipts, amount: r.total, firstDate: r.first, lastDate: r.last })) };
    },
  };
}
