// v2 people routes (spec "v2 routes"): officials, City staff and lobbyists with people.read;
// residents and organization representatives too with people.private.read on an offices team.
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { teamSchemas as s } from '../../modules/team-data/index.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';

const id = (description: string) => Type.String({ minLength: 1, maxLength: 200, description });
const privateNote = 'With people.private.read on a team with the offices feature, residents and organization representatives are included.';

export function peopleRoutes(ctx: AppContext): RouteDef[] {
  const people = ctx.services.teamData.people;
  return [
    defineRoute({
      method: 'GET',
      path: '/people',
      operation: 'people.team.list',
      summary: 'People: officials, City staff and lobbyists',
      description: `${privateNote} Ordered by name; pages by \`limit\` (1–200, default 50) and \`cursor\`.`,
      tags: ['people'],
      private: true,
      querystring: s.PeopleQuery,
      response: s.ListOf(s.TeamPerson),
      handler: ({ actor, query }) => people.list(actor, query),
    }),
    defineRoute({
      method: 'GET',
      path: '/people/:id',
      operation: 'people.team.read',
      summary: 'One person',
      description: `${privateNote} A person the credential may not see is 404.`,
      tags: ['people'],
      private: true,
      params: Type.Object({ id: id('Person id.') }),
      response: s.TeamPerson,
      handler: ({ actor, params }) => people.get(actor, { id: params.id }),
    }),
    defineRoute({
      method: 'GET',
      path: '/meetings/:id/testimony',
      operation: 'testimony.list',
      summary: 'Testimony given at a meeting',
      description: `Testimony of officials, City staff and lobbyists. ${privateNote}`,
      tags: ['people'],
      private: true,
      params: Type.Object({ id: id('Meeting id.') }),
      response: s.TestimonyList,
      handler: ({ actor, params }) => people.testimony(actor, { meetingId: params.id }),
    }),
  ];
}
