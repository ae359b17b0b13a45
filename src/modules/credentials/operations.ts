// The credentials module's operations: GET /me, what a credential can tell about itself, and the
// API keys (api-keys/operations.ts).
import { Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import type { Credentials } from './index.ts';
import { describeActor, MeSchema } from './me.ts';
import { ApiKey, keyOperationDefs } from './api-keys/operations.ts';

const op = operationsOf<Credentials>();

export const credentialsOperations = {
  'me.read': op({
    summary: 'The calling account, its team, credential, scopes, limits and usage today',
    description: 'Counted against the per-minute limit but not the daily one. Usage counts are for the limits owner: the team for team credentials.',
    tags: ['account'],
    private: true,
    access: access.account,
    limit: 'me',
    effect: 'read',
    input: Type.Object({}),
    output: MeSchema,
    run: (credentials, actor) => describeActor(credentials.limits, actor),
  }),
  /**
   * A key revoking itself (POST /auth/revoke, RFC 7009): only the calling credential, so it needs
   * no scope; the route refuses credentials that are not registration keys before performing it.
   */
  'me.key.revoke-self': op({
    summary: 'Revoke the calling API key',
    description: 'The key that makes this request stops working on its next request. Revoking twice is harmless.',
    tags: ['keys'],
    private: true,
    access: access.account,
    limit: 'none',
    effect: 'write',
    input: Type.Object({}, { additionalProperties: false }),
    output: ApiKey,
    run: (credentials, actor) => credentials.keys.revoke(actor, { id: actor.credential.id, via: 'revocation_endpoint' }),
  }),
  ...keyOperationDefs,
} satisfies Record<string, OperationDef<Credentials, any, any>>;
