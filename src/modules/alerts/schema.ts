// The alert settings of a follow as the API shows and takes them (README "Alerts"). The same
// TypeBox objects validate requests, filter responses and describe OpenAPI.
import { type Static, Type } from 'typebox';
import { Nullable } from '../../kernel/schema.ts';

export const frequencies = ['immediate', 'daily', 'weekly'] as const;
export const MAX_DELIVERIES_SHOWN = 20;

const Id = Type.String({ minLength: 1, maxLength: 200, description: 'Follow id.' });
const At = (description: string) => Type.String({ format: 'date-time', description });

export const EmailSetting = Type.Object(
  { frequency: Type.Enum([...frequencies], { description: 'immediate: one email per look that finds changes; daily or weekly: one digest of what changed.' }) },
  { additionalProperties: false, description: 'Email alerts and how often; null turns them off.' },
);

export const AlertItem = Type.Object({
  key: Type.String({ description: 'Stable id of the change (e.g. `action:<id>`, `vote:<roll call id>`).' }),
  title: Type.String(),
  url: Type.String({ description: 'The public page of the record.' }),
  date: Nullable(Type.String({ description: 'The day it happened (YYYY-MM-DD), when known.' })),
});

export const Delivery = Type.Object({
  id: Type.String(),
  channel: Type.Enum(['email', 'webhook']),
  frequency: Nullable(Type.Enum([...frequencies])),
  status: Type.Enum(['queued', 'sent', 'failed'], {
    description:
      'queued (waiting or being retried), sent, or failed after its retries. A webhook delivery is sent once every endpoint of the account acknowledged its events.',
  }),
  attempts: Type.Integer(),
  error: Nullable(Type.String({ description: 'Why the last attempt failed.' })),
  items: Type.Array(AlertItem),
  createdAt: At('When the delivery was queued.'),
  sentAt: Nullable(At('When it was sent.')),
});

const webhookNote =
  'Each change is a `follow.changed` event to every webhook endpoint of your account (Settings → Webhooks), signed as Standard Webhooks; its id is the same for the same change of the same follow, so it is delivered once.';

export const AlertSettings = Type.Object({
  followId: Type.String(),
  label: Type.String({ description: 'The follow’s label.' }),
  email: Nullable(EmailSetting),
  webhook: Type.Boolean({ description: webhookNote }),
  pending: Type.Integer({ description: 'Changes waiting for the next daily or weekly digest.' }),
  deliveries: Type.Array(Delivery, { description: `Your ${MAX_DELIVERIES_SHOWN} most recent deliveries for this follow, newest first.` }),
});

export const ByFollow = Type.Object({ id: Id }, { additionalProperties: false });
export const AlertSettingsInput = Type.Object(
  { id: Id, email: Nullable(EmailSetting), webhook: Type.Optional(Type.Boolean({ default: false, description: webhookNote })) },
  { additionalProperties: false },
);

export type AlertSettingsOut = Static<typeof AlertSettings>;
export type AlertSettingsIn = Static<typeof AlertSettingsInput>;
export type DeliveryOut = Static<typeof Delivery>;
