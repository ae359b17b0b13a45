// The webhooks operations (spec "Events"): a person's endpoints, adding one (its signing secret is
// in that answer only), deleting one, and the recent deliveries with every attempt. Personal
// credentials only: webhooks carry the account's own events. v2 routes, the webhooks page and the
// agent surfaces bind these entries.
import { Type } from 'typebox';
import { type OperationDef, operationsOf } from '../../kernel/catalogue.ts';
import { access } from '../../kernel/access.ts';
import { Deleted, Nullable } from '../../kernel/schema.ts';
import type { Webhooks } from './index.ts';
import { RECENT } from './service.ts';

const op = operationsOf<Webhooks>();
const common = { tags: ['me'], private: true, limit: 'data' } as const;
const read = { ...common, effect: 'read', access: access.personal('me.webhooks.read') } as const;
const write = { ...common, effect: 'write', access: access.personal('me.webhooks.write') } as const;
const Iso = Type.String({ format: 'date-time' });

const Endpoint = Type.Object({
  id: Type.String(),
  url: Type.String(),
  secretPrefix: Type.String({ description: 'The first characters of the signing secret, to recognise it.' }),
  createdAt: Iso,
});

const Delivery = Type.Object({
  id: Type.String(),
  endpointId: Type.String(),
  eventId: Type.String({ description: 'The webhook-id header: the same on every attempt and endpoint.' }),
  eventType: Type.String(),
  status: Type.String({ description: 'pending, delivered or failed.' }),
  createdAt: Iso,
  finishedAt: Nullable(Type.String({ format: 'date-time' })),
  attempts: Type.Array(Type.Object({ at: Iso, statusCode: Nullable(Type.Integer()), error: Nullable(Type.String()) })),
});

export const webhooksOperations = {
  'me.webhooks.list': op({
    ...read,
    summary: 'List your webhook endpoints',
    description: 'At most 10. Secrets are never shown again: only their first characters.',
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(Endpoint) }),
    run: async (webhooks, actor) => ({ data: await webhooks.endpoints(actor) }),
  }),
  'me.webhooks.create': op({
    ...write,
    summary: 'Add a webhook endpoint (its signing secret is in this answer only)',
    description:
      "The URL must be https and resolve to a public address (400 otherwise). Your account's events (credential.issued, credential.revoked, …) are POSTed to it with " +
      'the Standard Webhooks headers webhook-id, webhook-timestamp and webhook-signature (v1, base64 HMAC-SHA256 of id.timestamp.body keyed by the bytes after whsec_).',
    input: Type.Object({ url: Type.String({ maxLength: 2048, description: 'The https URL that receives the events.' }) }, { additionalProperties: false }),
    output: Type.Object({ endpoint: Endpoint, secret: Type.String({ description: 'whsec_…: keep it; it is never shown again.' }) }),
    run: (webhooks, actor, input) => webhooks.add(actor, input),
  }),
  'me.webhooks.delete': op({
    ...write,
    summary: 'Delete a webhook endpoint (its deliveries go with it)',
    description: "Another account's endpoint, or one already deleted, is 404.",
    input: Type.Object({ id: Type.String({ minLength: 1, maxLength: 200, description: 'Endpoint id.' }) }, { additionalProperties: false }),
    output: Deleted,
    run: async (webhooks, actor, input) => {
      await webhooks.remove(actor, input.id);
      return { id: input.id, deleted: true as const };
    },
  }),
  'me.webhooks.deliveries': op({
    ...read,
    summary: 'Your most recent webhook deliveries, newest first, with every attempt',
    description: `The ${RECENT} most recent, across all your endpoints.`,
    input: Type.Object({}, { additionalProperties: false }),
    output: Type.Object({ data: Type.Array(Delivery) }),
    run: async (webhooks, actor) => ({ data: await webhooks.deliveries(actor) }),
  }),
} satisfies Record<string, OperationDef<Webhooks, any, any>>;
