// v1 campaign money and lobbying routes.
import type { AppContext } from '../../context.ts';
import { schemas as s } from '../../modules/public-data/index.ts';
import type { OperationId } from '../../kernel/operations.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';

export function moneyRoutes(ctx: AppContext, listDescription: string): RouteDef[] {
  const pd = ctx.services.publicData;
  const detail = (path: string, operation: OperationId, summary: string, tag: string, response: any, get: (id: string) => Promise<unknown>, what: string) =>
    defineRoute({ method: 'GET', path, operation, summary, tags: [tag], params: s.idParams('id', what), response, handler: ({ params }) => get(params.id as string) });
  const list = (path: string, operation: OperationId, summary: string, tag: string, querystring: any, item: any, run: (q: any) => Promise<unknown>) =>
    defineRoute({
      method: 'GET',
      path,
      operation,
      summary,
      description: listDescription,
      tags: [tag],
      querystring,
      response: s.ListOf(item),
      handler: ({ query }) => run(query),
    });
  return [
    list('/money/committees', 'money.committees.list', 'Campaign committees of alderpersons', 'money', s.CommitteesQuery, s.Committee, pd.money.committees.list),
    detail('/money/committees/:id', 'money.committees.read', 'One committee with receipt and expenditure totals', 'money', s.CommitteeDetail, pd.money.committees.get, 'Committee id.'),
    list('/money/receipts', 'money.receipts.list', 'Contributions received, by committee, alderperson, ward and date', 'money', s.ReceiptsQuery, s.Receipt, pd.money.receipts.list),
    list('/money/expenditures', 'money.expenditures.list', 'Committee spending, by committee, alderperson, ward and date', 'money', s.ExpendituresQuery, s.Expenditure, pd.money.expenditures.list),
    defineRoute({
      method: 'GET',
      path: '/money/totals',
      operation: 'money.totals.read',
      summary: 'Receipts and expenditures summed per month, quarter or year',
      description: 'Amounts are decimal strings with two decimals. Without committee, person or ward, sums cover every committee.',
      tags: ['money'],
      querystring: s.TotalsQuery,
      response: s.Totals,
      handler: ({ query }) => pd.money.totals(query),
    }),
    list('/lobbying/lobbyists', 'lobbying.lobbyists.list', 'Registered lobbyists', 'lobbying', s.LobbyistsQuery, s.Lobbyist, pd.lobbying.lobbyists.list),
    detail('/lobbying/lobbyists/:id', 'lobbying.lobbyists.read', 'One lobbyist with employers, clients and report totals', 'lobbying', s.LobbyistDetail, pd.lobbying.lobbyists.get, 'Lobbyist id (lobbyist-<id>).'),
    list('/lobbying/clients', 'lobbying.clients.list', 'Clients lobbyists work for', 'lobbying', s.OrganisationsQuery, s.Organisation, pd.lobbying.clients.list),
    detail('/lobbying/clients/:id', 'lobbying.clients.read', 'One client with its lobbyists and their employers', 'lobbying', s.OrganisationDetail, pd.lobbying.clients.get, 'Client id (client-<id>).'),
    list('/lobbying/employers', 'lobbying.employers.list', 'Firms that employ lobbyists', 'lobbying', s.OrganisationsQuery, s.Organisation, pd.lobbying.employers.list),
    detail('/lobbying/employers/:id', 'lobbying.employers.read', 'One employer with its lobbyists and their clients', 'lobbying', s.OrganisationDetail, pd.lobbying.employers.get, 'Employer id (employer-<id>).'),
    list('/lobbying/compensation', 'lobbying.compensation.list', 'Compensation lobbyists reported, by lobbyist and client', 'lobbying', s.CompensationQuery, s.Compensation, pd.lobbying.compensation.list),
    list('/lobbying/expenditures', 'lobbying.expenditures.list', 'Lobbying expenditures, by lobbyist and client', 'lobbying', s.LobbyingExpendituresQuery, s.LobbyingExpenditure, pd.lobbying.expenditures.list),
    list('/lobbying/contributions', 'lobbying.contributions.list', 'Political contributions lobbyists reported, by lobbyist and receiving official', 'lobbying', s.ContributionsQuery, s.Contribution, pd.lobbying.contributions.list),
    list('/lobbying/activity', 'lobbying.activity.list', 'Whom lobbyists sought action from, by lobbyist, client and official', 'lobbying', s.ActivityQuery, s.Activity, pd.lobbying.activity.list),
  ];
}
