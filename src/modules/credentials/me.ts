// What GET /me describes (decisions.md "Envelopes and limits"): the calling account, its team, the
// credential, the scopes it holds now, the limits and today's usage of its limits owner.
import { Type } from 'typebox';
import { type Actor, features, roles } from '../../kernel/actor.ts';
import { Nullable } from '../../kernel/schema.ts';
import type { Limits } from './limits/index.ts';

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

export async function describeActor(limits: Pick<Limits, 'peek'>, actor: Actor) {
  const { usage } = await limits.peek(actor);
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
}
