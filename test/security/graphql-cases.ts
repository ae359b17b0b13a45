// The GraphQL surface's bindings for the generated security tests: every top-level field with the
// operation it performs and a well-formed document that selects it.
import type { OperationId } from '../../src/catalogue.ts';

export interface GraphQLBinding {
  field: string;
  operationId: OperationId;
  document: string;
}

const q = (field: string, operationId: OperationId, selection: string): GraphQLBinding => ({ field, operationId, document: `{ ${selection} }` });

export const graphqlBindings: GraphQLBinding[] = [
  q('matters', 'matters.list', 'matters(limit: 1) { data { id sponsors { name } rollCalls { votes { value } } } }'),
  q('matter', 'matters.read', 'matter(record: "O1900-0000001") { id }'),
  q('rollCalls', 'roll-calls.list', 'rollCalls(limit: 1) { data { id votes { value } matter { id } } }'),
  q('rollCall', 'roll-calls.read', 'rollCall(id: "none") { id }'),
  q('votes', 'votes.list', 'votes(limit: 1) { data { value } }'),
  q('meetings', 'meetings.list', 'meetings(limit: 1) { data { id agenda { id } insights { present } } }'),
  q('meeting', 'meetings.read', 'meeting(id: "none") { id }'),
  q('bodies', 'bodies.list', 'bodies(limit: 1) { data { id members { name } actions(limit: 1) { data { id matter { recordNumber } } } } }'),
  q('committees', 'bodies.list', 'committees(limit: 1) { data { id } }'),
  q('body', 'bodies.read', 'body(id: "none") { id }'),
  q('people', 'people.public.list', 'people(limit: 1) { data { id committees { bodyName } votes(limit: 1) { data { value } } } }'),
  q('person', 'people.public.read', 'person(id: "none") { id }'),
  q('ward', 'wards.locate', 'ward(lat: 41.8837, lon: -87.6318) { ward alderperson { id } }'),
  q('search', 'search.read', 'search(q: "parking", limit: 1) { data { id } }'),
  q('sources', 'sources.read', 'sources { data { source job { state } } }'),
  q('campaignCommittees', 'money.committees.list', 'campaignCommittees(limit: 1) { data { id } }'),
  q('campaignCommittee', 'money.committees.read', 'campaignCommittee(id: "none") { id receipts { amount } }'),
  q('receipts', 'money.receipts.list', 'receipts(limit: 1) { data { amount } }'),
  q('expenditures', 'money.expenditures.list', 'expenditures(limit: 1) { data { amount } }'),
  q('moneyTotals', 'money.totals.read', 'moneyTotals(period: "year") { data { period receipts { amount } } }'),
  q('lobbyists', 'lobbying.lobbyists.list', 'lobbyists(limit: 1) { data { id } }'),
  q('lobbyist', 'lobbying.lobbyists.read', 'lobbyist(id: "none") { id totals { compensation { amount } } }'),
  q('lobbyingClients', 'lobbying.clients.list', 'lobbyingClients(limit: 1) { data { id } }'),
  q('lobbyingClient', 'lobbying.clients.read', 'lobbyingClient(id: "none") { id engagements { year } }'),
  q('lobbyingEmployers', 'lobbying.employers.list', 'lobbyingEmployers(limit: 1) { data { id } }'),
  q('lobbyingEmployer', 'lobbying.employers.read', 'lobbyingEmployer(id: "none") { id }'),
  q('lobbyingCompensation', 'lobbying.compensation.list', 'lobbyingCompensation(limit: 1) { data { amount } }'),
  q('lobbyingExpenditures', 'lobbying.expenditures.list', 'lobbyingExpenditures(limit: 1) { data { amount } }'),
  q('lobbyingContributions', 'lobbying.contributions.list', 'lobbyingContributions(limit: 1) { data { amount } }'),
  q('lobbyingActivity', 'lobbying.activity.list', 'lobbyingActivity(limit: 1) { data { id } }'),
  { field: 'answer', operationId: 'answers.create', document: 'mutation { answer(question: "Who represents the 2nd ward?") { answer } }' },
];

/**
 * Fields of a team's own data: their cases need a team credential (test/security/graphql.test.ts,
 * "team fields"): a personal key is team_only, a team key without the scope scope_missing, and a
 * team without the feature feature_required.
 */
export const graphqlTeamBindings: (GraphQLBinding & { feature: string })[] = [
  {
    field: 'teamScorecard',
    operationId: 'team.scorecard.read',
    feature: 'team_data',
    document: '{ teamScorecard { bills { recordNumber } people { personId agreement } } }',
  },
];
