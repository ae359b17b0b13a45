// Campaign money and lobbying reads.
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Page } from './cursor.ts';
import { paginate } from './keyset.ts';
import * as p from './presenters.ts';
import {
  lobbyistDetail,
  lobbyistListQuery,
  nameSortPlan,
  type OrgTable,
  organisationDetail,
  organisationListQuery,
  periodSortPlan,
  type ReportTable,
  reportListQuery,
} from './repo-lobbying.ts';
import { committeeDetail, committeeListQuery, committeeSortPlan, expenditureListQuery, moneySortPlan, receiptListQuery, totals } from './repo-money.ts';
import type * as s from './schema.ts';
import { checkRange, notFound, stripUndefined } from './service.ts';

function periodLabel(start: string, period: 'month' | 'quarter' | 'year'): string {
  const [y, m] = start.split('-');
  if (period === 'year') return y!;
  if (period === 'month') return `${y}-${m}`;
  return `${y}-Q${Math.floor((Number(m) - 1) / 3) + 1}`;
}

export function createMoneyService(deps: ModuleDeps) {
  const { db } = deps;
  const report = (table: ReportTable) => async (q: s.ActivityInput) => {
    checkRange(q.from, q.to);
    const qb = reportListQuery(db, table, { ...q, updatedSince: q.updated_since });
    return paginate(qb, periodSortPlan(q.sort ?? '-period'), q, p.presentReport) as Promise<Page<any>>;
  };
  const organisations = (table: OrgTable, what: string) => ({
    async list(q: s.OrganisationsInput): Promise<Page<s.OrganisationOut>> {
      const qb = organisationListQuery(db, table, stripUndefined({ lobbyist: q.lobbyist, year: q.year, q: q.q, updatedSince: q.updated_since }));
      return paginate(qb, nameSortPlan(q.sort ?? 'name', 'o.name', 'o.id'), q, p.presentOrganisation);
    },
    async get(id: string): Promise<s.OrganisationDetailOut> {
      const row = await organisationDetail(db, table, id);
      if (!row) throw notFound(what, id);
      return p.presentOrganisationDetail(row);
    },
  });
  return {
    money: {
      committees: {
        async list(q: s.CommitteesInput): Promise<Page<s.CommitteeOut>> {
          const qb = committeeListQuery(db, { person: q.person, ward: q.ward, updatedSince: q.updated_since });
          return paginate(qb, committeeSortPlan(q.sort ?? 'name'), q, p.presentCommittee);
        },
        async get(id: string): Promise<s.CommitteeDetailOut> {
          const row = await committeeDetail(db, id);
          if (!row) throw notFound('committee', id);
          return p.presentCommitteeDetail(row);
        },
      },
      receipts: {
        async list(q: s.ReceiptsInput): Promise<Page<s.ReceiptOut>> {
          checkRange(q.from, q.to);
          const qb = receiptListQuery(db, { ...q, updatedSince: q.updated_since });
          return paginate(qb, moneySortPlan(q.sort ?? '-date', 'x'), q, p.presentReceipt);
        },
      },
      expenditures: {
        async list(q: s.ExpendituresInput): Promise<Page<s.ExpenditureOut>> {
          checkRange(q.from, q.to);
          const qb = expenditureListQuery(db, { ...q, updatedSince: q.updated_since });
          return paginate(qb, moneySortPlan(q.sort ?? '-date', 'x'), q, p.presentExpenditure);
        },
      },
      async totals(q: s.TotalsInput): Promise<s.TotalsOut> {
        checkRange(q.from, q.to);
        const period = q.period ?? 'year';
        const rows = await totals(db, q, period);
        return {
          period,
          data: rows.map((r) => ({
            period: periodLabel(r.start, period),
            start: r.start,
            receipts: { count: r.receipts_count, amount: p.money(r.receipts_amount) },
            expenditures: { count: r.expenditures_count, amount: p.money(r.expenditures_amount) },
          })),
        };
      },
    },
    lobbying: {
      lobbyists: {
        async list(q: s.LobbyistsInput): Promise<Page<s.LobbyistOut>> {
          const qb = lobbyistListQuery(db, stripUndefined({ client: q.client, employer: q.employer, q: q.q, updatedSince: q.updated_since }));
          return paginate(qb, nameSortPlan(q.sort ?? 'name', 'p.sort_name', 'p.id'), q, p.presentLobbyist);
        },
        async get(id: string): Promise<s.LobbyistDetailOut> {
          const row = await lobbyistDetail(db, id);
          if (!row) throw notFound('lobbyist', id);
          return p.presentLobbyistDetail(row);
        },
      },
      clients: organisations('lobbying_clients', 'lobbying client'),
      employers: organisations('lobbying_employers', 'lobbying employer'),
      compensation: { list: report('lobbying_compensation') },
      expenditures: { list: report('lobbying_expenditures') },
      contributions: { list: report('lobbying_contributions') },
      gifts: { list: report('lobbying_gifts') },
      activity: { list: report('lobbying_activity') },
    },
  };
}
