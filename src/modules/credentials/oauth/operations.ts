// The OAuth module's operations: the apps a person connected (their OAuth grants), listed and
// disconnected on the account page, a team's Settings → API keys and v2. Owners and admins see
// and disconnect every app connected for their team; other members the ones they connected.
import { Type } from 'typebox';
import type { Actor } from '../../../kernel/actor.ts';
import { type OperationDef, operationsOf } from '../../../kernel/catalogue.ts';
import type { Access } from '../../../kernel/access.ts';
import { Nullable } from '../../../kernel/schema.ts';
import type { OAuth } from './index.ts';

const op = operationsOf<OAuth>();

const App = Type.Object({
  id: Type.String({ description: 'The grant id: what disconnecting names.' }),
  clientId: Type.String(),
  clientName: Type.String(),
  clientUri: Nullable(Type.String()),
  person: Type.String({ description: 'Email of the person who connected it.' }),
  team: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  scopes: Type.Array(Type.String()),
  resource: Nullable(Type.String({ description: 'The surface its tokens are bound to (RFC 8707), or null for any.' })),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
});

const where = (actor: Actor, who: 'me' | 'team') => (who === 'team' && actor.team ? { teamId: actor.team.id } : { accountId: actor.account.id });

function appOperations(who: 'me' | 'team') {
  const read: Access = who === 'me' ? { scopes: ['me.keys.read'], context: 'personal' } : { scopes: ['team.keys.read'], context: 'team' };
  const write: Access =
    who === 'me'
      ? { scopes: ['me.keys.write'], context: 'personal' }
      : { scopes: ['team.keys.write'], context: 'team', roles: ['owner', 'admin'], forbidden: "Only team owners and admins can disconnect the team's apps." };
  const common = { tags: ['keys'], private: true, limit: 'data' } as const;
  return {
    list: op({
      ...common,
      effect: 'read',
      access: read,
      summary: who === 'me' ? 'List the apps you connected with OAuth, for you or for a team' : 'List the apps connected for the team with OAuth',
      input: Type.Object({}, { additionalProperties: false }),
      output: Type.Object({ data: Type.Array(App) }),
      run: async (oauth, actor) => ({ data: await oauth.connectedApps(actor, where(actor, who)) }),
    }),
    disconnect: op({
      ...common,
      effect: 'write',
      access: write,
      summary: who === 'me' ? 'Disconnect an app you connected' : 'Disconnect an app connected for the team',
      description: 'The grant and every token it issued stop working on their next request. Another person’s or team’s app is 404.',
      input: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200 }) }, { additionalProperties: false }),
      output: Type.Object({ id: Type.String(), disconnected: Type.Literal(true) }),
      run: async (oauth, actor, input) => {
        await oauth.disconnect(actor, input.id, where(actor, who));
        return { id: input.id, disconnected: true as const };
      },
    }),
  };
}

const me = appOperations('me');
const team = appOperations('team');

export const oauthOperations = {
  'me.apps.list': me.list,
  'me.apps.disconnect': me.disconnect,
  'team.apps.list': team.list,
  'team.apps.disconnect': team.disconnect,
} satisfies Record<string, OperationDef<OAuth, any, any>>;
