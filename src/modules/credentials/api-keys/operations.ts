// The API key operations (spec "Resources: API key"; decisions.md "Credentials"): a person's own
// keys (me.keys.*: personal keys, and the team keys they made) and a team's keys (team.keys.*:
// every key for owners and admins, the team keys they made for other members). The account page,
// a team's Settings → API keys and v2 all perform these. A key made by a credential never holds a
// scope that credential does not hold itself.
import { Type } from 'typebox';
import type { Actor } from '../../../kernel/actor.ts';
import { type Call, type OperationDef, operationsOf } from '../../../kernel/catalogue.ts';
import { type Access, allScopes } from '../../../kernel/access.ts';
import { ListOf, Nullable, PageQuery } from '../../../kernel/schema.ts';
import type { CredentialVia } from '../../security-log/index.ts';
import type { Credentials } from '../index.ts';
import type { KeyContext } from './service.ts';

const op = operationsOf<Credentials>();

const Id = Type.String({ minLength: 1, maxLength: 200, description: 'The key id (key_…).' });

export const ApiKey = Type.Object({
  id: Type.String(),
  prefix: Type.String({ description: 'The first 8 characters of the value, to recognise it; the value itself is never shown again.' }),
  name: Type.String(),
  owner: Type.Union([
    Type.Object({ type: Type.Literal('personal') }),
    Type.Object({ type: Type.Literal('team'), teamId: Type.String(), teamName: Type.String() }),
  ]),
  createdBy: Type.Object({ accountId: Type.String(), email: Type.String() }),
  kind: Type.Union([Type.Literal('scoped'), Type.Literal('registration'), Type.Literal('legacy')]),
  scopes: Type.Array(Type.Union(allScopes.map((s) => Type.Literal(s))), {
    description: 'Scopes granted at creation; what the key may do now is also cut by its creator’s current role.',
  }),
  allowedIps: Type.Array(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  lastUsedAt: Nullable(Type.String({ format: 'date-time' })),
  expiresAt: Nullable(Type.String({ format: 'date-time' })),
  revokedAt: Nullable(Type.String({ format: 'date-time' })),
  revokedReason: Nullable(Type.String()),
});

const Created = Type.Object({
  id: Type.String(),
  key: Type.String({ description: 'The value, shown this once (only its hash is kept; an idempotent replay shows its prefix).' }),
  apiKey: ApiKey,
});

const fields = {
  name: Type.String({ maxLength: 400, description: 'A name to recognise the key by (1–200 characters).' }),
  expiresAt: Nullable(Type.String({ maxLength: 100, description: 'When it stops working (ISO 8601, in the future); null or omitted: never.' })),
  allowedIps: Type.Array(Type.String({ maxLength: 100 }), {
    maxItems: 100,
    description: 'Addresses or CIDR ranges that may use it; empty or omitted: any.',
  }),
};

const Create = Type.Object(
  {
    name: fields.name,
    scopes: Type.Array(Type.String({ maxLength: 100 }), {
      minItems: 1,
      maxItems: 50,
      description: 'Scopes for the key: each must fit the key kind, be one your role may grant, and be one the calling credential holds itself.',
    }),
    expiresAt: Type.Optional(fields.expiresAt),
    allowedIps: Type.Optional(fields.allowedIps),
  },
  { additionalProperties: false },
);

const Change = Type.Object(
  { name: Type.Optional(fields.name), expiresAt: Type.Optional(fields.expiresAt), allowedIps: Type.Optional(fields.allowedIps) },
  { additionalProperties: false, minProperties: 1, description: 'The fields to change; the others stay as they are.' },
);
const Update = Type.Object({ id: Id, change: Change }, { additionalProperties: false });
const ById = Type.Object({ id: Id }, { additionalProperties: false });

/** Where the caller's keys live: the team of a team credential, or the person's own. */
function within(actor: Actor, who: 'me' | 'team'): KeyContext {
  return who === 'team' && actor.team ? { teamId: actor.team.id } : { accountId: actor.account.id };
}

/** The website's pages issue and revoke "on the website"; every other surface through the API. */
const viaOf = (call: Call): CredentialVia => (call.surface === 'web' ? 'website' : 'api');

const managersOnly = ['owner', 'admin'] as const;

function keyOperations(who: 'me' | 'team') {
  const read: Access = who === 'me' ? { scopes: ['me.keys.read'], context: 'personal' } : { scopes: ['team.keys.read'], context: 'team' };
  const write = (refusal: string): Access =>
    who === 'me'
      ? { scopes: ['me.keys.write'], context: 'personal' }
      : { scopes: ['team.keys.write'], context: 'team', roles: managersOnly, forbidden: refusal };
  const whose = who === 'me' ? 'your' : "the team's";
  const common = { tags: ['keys'], private: true, limit: 'data' } as const;
  return {
    list: op({
      ...common,
      effect: 'read',
      access: read,
      summary: who === 'me' ? 'List your API keys (personal, and team keys you made)' : "List the team's API keys",
      description:
        (who === 'me' ? '' : 'Owners and admins see every live key of the team; other members see the team keys they made. ') +
        'Newest first; paged by `limit` and `cursor`. Lists never show a key’s value, only its prefix.',
      input: PageQuery({}),
      output: ListOf(ApiKey),
      run: (c, actor, q) => c.keys.page(actor, within(actor, who), q),
    }),
    create: op({
      ...common,
      effect: 'write',
      access: write('Only team owners and admins can make team keys.'),
      summary: who === 'me' ? 'Make a personal API key' : 'Make a team API key',
      description:
        'The value is in this answer only. A key never holds more power than the credential that makes it: every scope asked for ' +
        'must be one the caller holds (else 403 forbidden), fit the key kind and be one the creator’s role may grant (else 400).',
      input: Create,
      output: Created,
      run: (c, actor, input, call) =>
        c.keys.create({
          accountId: actor.account.id,
          by: actor,
          teamId: who === 'team' ? actor.team!.id : null,
          name: input.name,
          scopes: input.scopes,
          expiresAt: input.expiresAt ?? null,
          allowedIps: input.allowedIps ?? [],
          ceiling: actor.scopes,
          via: viaOf(call),
        }),
    }),
    update: op({
      ...common,
      effect: 'write',
      access: write("Only team owners and admins can change the team's keys."),
      summary: `Rename one of ${whose} API keys, or change its expiry or allowed addresses`,
      description: 'A revoked key cannot be changed (400). Another team’s or person’s key is 404.',
      input: Update,
      output: ApiKey,
      run: (c, actor, input) => c.keys.update(actor, { id: input.id, within: within(actor, who) }, input.change),
    }),
    revoke: op({
      ...common,
      effect: 'write',
      access: write("Only team owners and admins can revoke the team's keys."),
      summary: `Revoke one of ${whose} API keys`,
      description: 'It stops working on its next request. Revoking twice is harmless: the first revocation and its reason stay.',
      input: ById,
      output: ApiKey,
      run: (c, actor, input, call) => c.keys.revoke(actor, { id: input.id, within: within(actor, who), via: viaOf(call) }),
    }),
  };
}

const me = keyOperations('me');
const team = keyOperations('team');

export const keyOperationDefs = {
  'me.keys.list': me.list,
  'me.keys.create': me.create,
  'me.keys.update': me.update,
  'me.keys.revoke': me.revoke,
  'team.keys.list': team.list,
  'team.keys.create': team.create,
  'team.keys.update': team.update,
  'team.keys.revoke': team.revoke,
} satisfies Record<string, OperationDef<Credentials, any, any>>;
