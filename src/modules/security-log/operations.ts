// The security-log module's operation: reading one's own security log (spec "Events"), which the
// account's Security log page and v2 perform.
import { Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import type { SecurityLog } from './index.ts';

const op = operationsOf<SecurityLog>();

const Entry = Type.Object({
  id: Type.String(),
  type: Type.String({ description: 'credential.issued or credential.revoked.' }),
  occurredAt: Type.String({ format: 'date-time' }),
  summary: Type.String({ description: 'The event in words.' }),
  data: Type.Unknown({ description: "The event's data, as webhooks deliver it: the credential's id, kind, name, prefix and scopes; never its value." }),
});

export const securityLogOperations = {
  'me.security.read': op({
    summary: 'Your security log: credentials issued and revoked, newest first',
    description: 'Every key, OAuth grant and registration key issued for or revoked from your account, including team keys you made.',
    tags: ['keys'],
    private: true,
    access: { scopes: ['me.keys.read'], context: 'personal' },
    limit: 'data',
    effect: 'read',
    input: Type.Object(
      { limit: Type.Integer({ minimum: 1, maximum: 500, default: 100, description: 'How many entries, newest first (1–500, default 100).' }) },
      { additionalProperties: false },
    ),
    output: Type.Object({ data: Type.Array(Entry) }),
    run: async (securityLog, actor, input) => ({ data: await securityLog.read(actor, { limit: input.limit }) }),
  }),
} satisfies Record<string, OperationDef<SecurityLog, any, any>>;
