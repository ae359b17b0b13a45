// GET /me: the caller's account, team, credential, live scopes, limits and usage today
// (decisions.md "Envelopes and limits"). Counted against the per-minute limit only ('me' class).
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { features, roles } from '../../kernel/actor.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const MeSchema = Type.Object({
  account: Type.Object({ id: Type.String(), email: Type.String(), name: Nullable(Type.String()) }),
  team: Nullable(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      role: Type.Union(roles.map((r) => Type.Literal(r))),
      features: Type.Array(Type.Union(features.map((f) => Type.Literal(f)))),
    }),
  ),
  credential: Type.Object({
    id: Type.String(),
    type: Type.Union([Type.Literal('api_key'), Type.Literal('oauth'), Type.Literal('session')]),
    name: Type.String(),
    scopes: Type.Array(Type.String(), { description: 'Scopes granted when the credential was made.' }),
    expiresAt: Nullable(Type.String({ format: 'date-time' })),
  }),
  scopes: Type.Array(Type.String(), { description: "Scopes the credential holds now, cut down to the creator's current role and the team's features." }),
  limits: Type.Object({ requestsPerDay: Type.Integer(), requestsPerMinute: Type.Integer(), aiAnswersPerDay: Type.Integer() }),
  usage: Type.Object({
    requestsToday: Type.Integer(),
    aiAnswersToday: Type.Integer(),
    resetsAt: Type.String({ format: 'date-time', description: 'The next midnight UTC, when the daily counts reset.' }),
  }),
});

export function meRoutes(ctx: AppContext): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/me',
      operation: 'me.read',
      summary: 'The calling account, its team, credential, scopes, limits and usage today',
      description: 'Counted against the per-minute limit but not the daily one. Usage counts are for the limits owner: the team for team credentials.',
      tags: ['account'],
      private: true,
      response: MeSchema,
      async handler({ actor }) {
        const { usage } = await ctx.services.credentials.limits.peek(actor);
        return {
          account: actor.account,
          team: actor.team,
          credential: {
            id: actor.credential.id,
            type: actor.credential.type,
            name: actor.credential.name,
            scopes: actor.credential.grantedScopes ?? actor.scopes,
            expiresAt: actor.credential.expiresAt?.toISOString() ?? null,
          },
          scopes: actor.scopes,
          limits: actor.limits,
          usage,
        };
      },
    }),
  ];
}
