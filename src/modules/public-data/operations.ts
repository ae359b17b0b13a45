// The public-data operations: every read of the public record, as the catalogue entries that v1,
// v2, the web pages, GraphQL and MCP bind. Each answers from its input and the public record
// alone (no caller, no clock), so each is `cached`: an answer is kept until the record changes.
import { type TObject, type TSchema, Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import type { PublicData } from './index.ts';
import * as s from './schema.ts';

const op = operationsOf<PublicData>();

export const listDescription =
  'Lists page by `limit` (1–200, default 50) and `cursor` (from `meta.nextCursor`); cursors are opaque and stable when records are added. ' +
  '`updated_since` keeps records that changed at or after an ISO 8601 timestamp. Unknown parameters and values are refused with 400.';

const read = { access: access.open(), limit: 'data', effect: 'read', cached: true } as const;

/** A read of one record by its id (`key` names the id: `record` for matters, else `id`). */
const detail = <O extends TSchema>(tag: string, summary: string, key: string, what: string, output: O, get: (pd: PublicData, id: string) => Promise<unknown>) =>
  op({ ...read, summary, tags: [tag], input: s.idParams(key, what), output, run: (pd, _actor, input) => get(pd, (input as Record<string, string>)[key]!) });
const list = <I extends TObject, T extends TSchema>(
  tag: string,
  summary: string,
  input: I,
  item: T,
  run: (pd: PublicData, q: any) => Promise<unknown>,
  description = listDescription,
) => op({ ...read, summary, description, tags: [tag], input, output: s.ListOf(item), run: (pd, _actor, q) => run(pd, q) });

export const publicDataOperations = {
  'matters.list': list(
    'matters',
    'Matters (legislation), filtered and searched',
    s.MattersQuery,
    s.Matter,
    (pd, q) => pd.matters.list(q),
    `Filters by type, status, sponsor, controlling body and introduction date; \`q\` searches record numbers, titles, sponsors and topics (ranked; an exact record number comes first). ${listDescription}`,
  ),
  'matters.read': detail(
    'matters',
    'One matter by record number, with sponsors, actions, attachments, substitutes and roll calls',
    'record',
    'Record number, case-insensitive (e.g. O2023-0001234).',
    s.MatterDetail,
    (pd, record) => pd.matters.get(record),
  ),
  'roll-calls.list': list('votes', 'Roll calls with their tallies', s.RollCallsQuery, s.RollCall, (pd, q) => pd.rollCalls.list(q)),
  'roll-calls.read': detail(
    'votes',
    'One roll call with every person’s vote; the tallies equal the sums of the votes',
    'id',
    'Roll call id.',
    s.RollCallDetail,
    (pd, id) => pd.rollCalls.get(id),
  ),
  'votes.list': list('votes', 'Individual votes, newest first, by matter, person, meeting, roll call or value', s.VotesQuery, s.Vote, (pd, q) =>
    pd.votes.list(q),
  ),
  'meetings.list': list(
    'meetings',
    'Meetings of the council and its committees',
    s.MeetingsQuery,
    s.Meeting,
    (pd, q) => pd.meetings.list(q),
    `Dates in \`from\`/\`to\` are days in Chicago. ${listDescription}`,
  ),
  'meetings.read': detail(
    'meetings',
    'One meeting with agenda, attendance, documents, roll calls, public testimony and insights',
    'id',
    'Meeting id.',
    s.MeetingDetail,
    (pd, id) => pd.meetings.get(id),
  ),
  'bodies.list': list('people', 'The council and its committees', s.BodiesQuery, s.Body, (pd, q) => pd.bodies.list(q)),
  'bodies.read': detail('people', 'One body with its members', 'id', 'Body id.', s.BodyDetail, (pd, id) => pd.bodies.get(id)),
  'bodies.actions.list': list('people', 'What a body did: its actions on matters, newest first', s.BodyActionsQuery, s.BodyAction, (pd, q) =>
    pd.bodies.actions(q),
  ),
  'people.public.list': list('people', 'Alderpersons (with wards), officials and lobbyists', s.PeopleQuery, s.Person, (pd, q) => pd.people.list(q)),
  'people.public.read': detail('people', 'One public person with terms of office and committee memberships', 'id', 'Person id.', s.PersonDetail, (pd, id) =>
    pd.people.get(id),
  ),
  'search.read': list(
    'search',
    'Ranked search across matters, people, meetings, bodies and lobbying organisations',
    s.SearchQuery,
    s.SearchResult,
    (pd, q) => pd.search(q),
    `Results are ordered by relevance, in which a record's own title or name weighs the same whatever its kind: a word in a matter's title as much as in a committee's name, a meeting's committee or a person's name. ${listDescription}`,
  ),
  'sources.read': op({
    ...read,
    // Live state of sync jobs, from the queue's tables: read on every request, never kept.
    cached: false,
    summary: 'Freshness of each upstream source (last sync, last success, last error), its schedule and its latest sync job',
    tags: ['sources'],
    input: Type.Object({}, { additionalProperties: false }),
    output: s.SourcesList,
    run: (pd) => pd.sources(),
  }),
  'money.committees.list': list('money', 'Campaign committees of alderpersons', s.CommitteesQuery, s.Committee, (pd, q) => pd.money.committees.list(q)),
  'money.committees.read': detail('money', 'One committee with receipt and expenditure totals', 'id', 'Committee id.', s.CommitteeDetail, (pd, id) =>
    pd.money.committees.get(id),
  ),
  'money.receipts.list': list('money', 'Contributions received, by committee, alderperson, ward and date', s.ReceiptsQuery, s.Receipt, (pd, q) =>
    pd.money.receipts.list(q),
  ),
  'money.expenditures.list': list('money', 'Committee spending, by committee, alderperson, ward and date', s.ExpendituresQuery, s.Expenditure, (pd, q) =>
    pd.money.expenditures.list(q),
  ),
  'money.totals.read': op({
    ...read,
    summary: 'Receipts and expenditures summed per month, quarter or year',
    description: 'Amounts are decimal strings with two decimals. Without committee, person or ward, sums cover every committee.',
    tags: ['money'],
    input: s.TotalsQuery,
    output: s.Totals,
    run: (pd, _actor, q) => pd.money.totals(q),
  }),
  'lobbying.lobbyists.list': list('lobbying', 'Registered lobbyists', s.LobbyistsQuery, s.Lobbyist, (pd, q) => pd.lobbying.lobbyists.list(q)),
  'lobbying.lobbyists.read': detail(
    'lobbying',
    'One lobbyist with employers, clients and report totals',
    'id',
    'Lobbyist id (lobbyist-<id>).',
    s.LobbyistDetail,
    (pd, id) => pd.lobbying.lobbyists.get(id),
  ),
  'lobbying.clients.list': list('lobbying', 'Clients lobbyists work for', s.OrganisationsQuery, s.Organisation, (pd, q) => pd.lobbying.clients.list(q)),
  'lobbying.clients.read': detail(
    'lobbying',
    'One client with its lobbyists and their employers',
    'id',
    'Client id (client-<id>).',
    s.OrganisationDetail,
    (pd, id) => pd.lobbying.clients.get(id),
  ),
  'lobbying.employers.list': list('lobbying', 'Firms that employ lobbyists', s.OrganisationsQuery, s.Organisation, (pd, q) => pd.lobbying.employers.list(q)),
  'lobbying.employers.read': detail(
    'lobbying',
    'One employer with its lobbyists and their clients',
    'id',
    'Employer id (employer-<id>).',
    s.OrganisationDetail,
    (pd, id) => pd.lobbying.employers.get(id),
  ),
  'lobbying.compensation.list': list('lobbying', 'Compensation lobbyists reported, by lobbyist and client', s.CompensationQuery, s.Compensation, (pd, q) =>
    pd.lobbying.compensation.list(q),
  ),
  'lobbying.expenditures.list': list('lobbying', 'Lobbying expenditures, by lobbyist and client', s.LobbyingExpendituresQuery, s.LobbyingExpenditure, (pd, q) =>
    pd.lobbying.expenditures.list(q),
  ),
  'lobbying.contributions.list': list(
    'lobbying',
    'Political contributions lobbyists reported, by lobbyist and receiving official',
    s.ContributionsQuery,
    s.Contribution,
    (pd, q) => pd.lobbying.contributions.list(q),
  ),
  'lobbying.gifts.list': list(
    'lobbying',
    'Gifts lobbyists reported giving to City officials and employees, by lobbyist and receiving alderperson',
    s.GiftsQuery,
    s.Gift,
    (pd, q) => pd.lobbying.gifts.list(q),
    `\`official\` keeps the gifts whose report names that alderperson (the City Council department, or an alderman's title, and exactly one alderperson of that name). ${listDescription}`,
  ),
  'people.public.record.read': op({
    ...read,
    summary: "A public person's voting record (attendance, agreement with the majority) and how far their sponsored legislation got",
    description: 'Alignment counts Yea and Nay votes on roll calls whose yeas and nays were not tied: the share on the side with more votes.',
    tags: ['people'],
    input: s.PersonRecordQuery,
    output: s.PersonRecord,
    run: (pd, _actor, q) => pd.personRecord(q.id),
  }),
  'council.compare.read': op({
    ...read,
    summary:
      'Every current alderperson side by side: attendance, agreement with the council majority, roll calls in the minority, legislation sponsored and passed',
    description:
      'Computed in the database over the votes recorded by name, with the same measures as a person’s record: attendance counts every vote but absent or not voting; the majority of a roll call is the side with more yeas or nays in its tallies as published (a tie decides nothing). Sort by any column; ties by ward.',
    tags: ['people'],
    input: s.CouncilCompareQuery,
    output: s.CouncilCompare,
    run: (pd, _actor, q) => pd.councilCompare(q),
  }),
  'committee-history.read': op({
    ...read,
    summary: 'The Legistar-era committee history of a person or a body: terms (to 2019) and meeting attendance (2011–2017)',
    description:
      'From DataMade’s council-flow (derived from its Open Civic Data API for Chicago): committee terms, and for confirmed committee meetings 2011–2017 whether each member is recorded present. Give exactly one of `person` or `body`; an unknown id has an empty history.',
    tags: ['people'],
    input: s.CommitteeHistoryQuery,
    output: s.CommitteeHistory,
    run: (pd, _actor, q) => pd.committeeHistory(q),
  }),
  'money.contributors.read': op({
    ...read,
    summary: "A committee's (or an alderperson's committees') largest contributors by the sum of their receipts",
    tags: ['money'],
    input: s.ContributorsQuery,
    output: s.Contributors,
    run: (pd, _actor, q) => pd.topContributors(q),
  }),
  'wards.locate': op({
    ...read,
    summary: 'Which ward a point is in, and its alderperson',
    description:
      'Point-in-polygon over the 2023 ward boundaries (City of Chicago data portal). `lat` and `lon` are WGS 84 decimal degrees; a point outside every ward answers `ward: null`. Out-of-range or non-numeric coordinates are refused with 400.',
    tags: ['people'],
    input: s.WardsQuery,
    output: s.WardLocation,
    run: (pd, _actor, q) => pd.wards.locate(q),
  }),
  'lobbying.activity.list': list('lobbying', 'Whom lobbyists sought action from, by lobbyist, client and official', s.ActivityQuery, s.Activity, (pd, q) =>
    pd.lobbying.activity.list(q),
  ),
} satisfies Record<string, OperationDef<PublicData, any, any>>;
