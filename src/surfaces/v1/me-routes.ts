// GET /me: the caller's account, usage and limits.
import { Type } from 'typebox';
import type { AppContext } from '../../context.ts';
import { defineRoute, type RouteDef } from '../http/route.ts';

export function meRoutes(_ctx: AppContext): RouteDef[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/me',
      operation: 'me.read',
      summary: 'The calling account, its scopes, limits and usage today',
      tags: ['account'],
      private: true,
      response: Type.Object({ account: Type.Object({ id: Type.String(), email: Type.String() }), scopes: Type.Array(Type.String()) }),
      async handler({ actor }) {
        return { account: actor.account, scopes: actor.scopes };
      },
    }),
  ];
}
