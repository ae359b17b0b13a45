// v1 public data routes: each parses (the schemas validate), calls the public-data service and
// returns what it presents. The same schemas drive validation, serialization and OpenAPI.
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { schemas as s } from '../../modules/public-data/index.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';
import { moneyRoutes } from './public-routes-money.ts';

const listDescription =
  'Lists page by `limit` (1–200, default 50) and `cursor` (from `meta.nextCursor`); cursors are opaque and stable when records are added. ' +
  '`updated_since` keeps records that changed at or after an ISO 8601 timestamp. Unknown parameters and values are refused with 400.';

/**
 * Every route here answers from the URL and the public record alone (no caller, no clock), so
 * each is `cached`: its answers are kept in memory until the public record changes.
 */
export function publicRoutes(ctx: AppContext): RouteDef[] {
  const pd = ctx.services.publicData;
  return [
    defineRoute({
      method: 'GET',
      path: '/matters',
      operation: 'matters.list',
      summary: 'Matters (legislation), filtered and searched',
      description: `Filters by type, status, sponsor, controlling body and introduction date; \`q\` searches record numbers, titles, sponsors and topics (ranked; an exact record number comes first). ${listDescription}`,
      tags: ['matters'],
      querystring: s.MattersQuery,
      response: s.ListOf(s.Matter),
      handler: ({ query }) => pd.matters.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/matters/:record',
      operation: 'matters.read',
      summary: 'One matter by record number, with sponsors, actions, attachments, substitutes and roll calls',
      tags: ['matters'],
      params: s.idParams('record', 'Record number, case-insensitive (e.g. O2023-0001234).'),
      response: s.MatterDetail,
      handler: ({ params }) => pd.matters.get(params.record as string),
    }),
    defineRoute({
      method: 'GET',
      path: '/roll-calls',
      operation: 'roll-calls.list',
      summary: 'Roll calls with their tallies',
      description: listDescription,
      tags: ['votes'],
      querystring: s.RollCallsQuery,
      response: s.ListOf(s.RollCall),
      handler: ({ query }) => pd.rollCalls.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/roll-calls/:id',
      operation: 'roll-calls.read',
      summary: 'One roll call with every person’s vote; the tallies equal the sums of the votes',
      tags: ['votes'],
      params: s.idParams('id', 'Roll call id.'),
      response: s.RollCallDetail,
      handler: ({ params }) => pd.rollCalls.get(params.id as string),
    }),
    defineRoute({
      method: 'GET',
      path: '/votes',
      operation: 'votes.list',
      summary: 'Individual votes, newest first, by matter, person, meeting, roll call or value',
      description: listDescription,
      tags: ['votes'],
      querystring: s.VotesQuery,
      response: s.ListOf(s.Vote),
      handler: ({ query }) => pd.votes.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/meetings',
      operation: 'meetings.list',
      summary: 'Meetings of the council and its committees',
      description: `Dates in \`from\`/\`to\` are days in Chicago. ${listDescription}`,
      tags: ['meetings'],
      querystring: s.MeetingsQuery,
      response: s.ListOf(s.Meeting),
      handler: ({ query }) => pd.meetings.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/meetings/:id',
      operation: 'meetings.read',
      summary: 'One meeting with agenda, attendance, documents, roll calls, public testimony and insights',
      tags: ['meetings'],
      params: s.idParams('id', 'Meeting id.'),
      response: s.MeetingDetail,
      handler: ({ params }) => pd.meetings.get(params.id as string),
    }),
    defineRoute({
      method: 'GET',
      path: '/bodies',
      operation: 'bodies.list',
      summary: 'The council and its committees',
      description: listDescription,
      tags: ['people'],
      querystring: s.BodiesQuery,
      response: s.ListOf(s.Body),
      handler: ({ query }) => pd.bodies.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/bodies/:id',
      operation: 'bodies.read',
      summary: 'One body with its members',
      tags: ['people'],
      params: s.idParams('id', 'Body id.'),
      response: s.BodyDetail,
      handler: ({ params }) => pd.bodies.get(params.id as string),
    }),
    defineRoute({
      method: 'GET',
      path: '/people',
      operation: 'people.public.list',
      summary: 'Alderpersons (with wards), officials and lobbyists',
      description: listDescription,
      tags: ['people'],
      querystring: s.PeopleQuery,
      response: s.ListOf(s.Person),
      handler: ({ query }) => pd.people.list(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/people/:id',
      operation: 'people.public.read',
      summary: 'One public person with terms of office and committee memberships',
      tags: ['people'],
      params: s.idParams('id', 'Person id.'),
      response: s.PersonDetail,
      handler: ({ params }) => pd.people.get(params.id as string),
    }),
    defineRoute({
      method: 'GET',
      path: '/search',
      operation: 'search.read',
      summary: 'Ranked search across matters, people, meetings, bodies and lobbying organisations',
      description: `Results are ordered by relevance. ${listDescription}`,
      tags: ['search'],
      querystring: s.SearchQuery,
      response: s.ListOf(s.SearchResult),
      handler: ({ query }) => pd.search(query),
    }),
    defineRoute({
      method: 'GET',
      path: '/sources',
      operation: 'sources.read',
      summary: 'Freshness of each upstream source (last sync, last success, last error), its schedule and its latest sync job',
      tags: ['sources'],
      querystring: Type.Object({}, { additionalProperties: false }),
      response: s.SourcesList,
      handler: () => pd.sources(),
      // Live state of sync jobs, from the queue's tables: read on every request, never kept.
      cached: false,
    }),
    ...moneyRoutes(ctx, listDescription),
  ].map((route) => ({ cached: true, ...route }));
}
