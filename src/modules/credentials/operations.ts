// The credentials module's operations: GET /me, what a credential can tell about itself, and the
// API keys (api-keys/operations.ts).
import { Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import type { Credentials } from './index.ts';
import { describeActor, MeSchema } from './me.ts';
import { keyOperationDefs } from './api-keys/operations.ts';

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
  ...keyOperationDefs,
} satisfies Record<string, OperationDef<Credentials, any, any>>;
