// An account's webhook endpoints and the events published to them. Adding an endpoint checks its
// URL with the SSRF guard (kernel/safe-fetch.ts) and makes its signing secret, shown once.
// publish() files one delivery per endpoint (unique per endpoint and event, so the same event
// twice, or from two instances, is delivered once) and hands it to the job queue (./delivery.ts).
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db-schema.ts';
import type { Actor } from '../../kernel/actor.ts';
import type { ModuleDeps } from '../../kernel/deps.ts';
import { AppError } from '../../kernel/errors.ts';
import { checkFetchTarget, SafeFetchError } from '../../kernel/safe-fetch.ts';
import * as repo from './repo.ts';

/** An event as webhooks carry it: `id` is the webhook-id, the same on every attempt and endpoint. */
export interface WebhookEvent {
  id: string;
  type: string;
  data: unknown;
}

export interface EndpointView {
  id: string;
  url: string;
  /** The first characters of the secret, to recognise it. */
  secretPrefix: string;
  createdAt: string;
}

const MAX_ENDPOINTS = 10;
/** How many deliveries the settings page and the API show. */
export const RECENT = 50;
const MAX_URL_LENGTH = 2048;
const EVENT_ID = /^[A-Za-z0-9_.:-]{1,200}$/;
const EVENT_TYPE = /^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/;

/** Standard Webhooks secrets: `whsec_` + base64 of 24 random bytes (192 bits). */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

function present(row: { id: string; url: string; secret: string; created_at: Date }): EndpointView {
  return { id: row.id, url: row.url, secretPrefix: row.secret.slice(0, 12), createdAt: new Date(row.created_at).toISOString() };
}

export interface DeliveryView {
  id: string;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: string;
  createdAt: string;
  finishedAt: string | null;
  attempts: { at: string; statusCode: number | null; error: string | null }[];
}

type DeliveryRow = Awaited<ReturnType<typeof repo.recentDeliveries>>[number];
const iso = (d: Date | string) => new Date(d).toISOString();

function presentDelivery(d: DeliveryRow): DeliveryView {
  return {
    id: d.id,
    endpointId: d.endpoint_id,
    eventId: d.event_id,
    eventType: d.event_type,
    status: d.status,
    createdAt: iso(d.created_at),
    finishedAt: d.finished_at ? iso(d.finished_at) : null,
    attempts: d.tries.map((a) => ({ at: iso(a.at), statusCode: a.status_code, error: a.error })),
  };
}

/**
 * The body every attempt sends (Standard Webhooks payload: type, timestamp, data). It is fixed at
 * publication, so each attempt signs the same bytes.
 */
export function payloadOf(event: WebhookEvent, at: Date): string {
  return JSON.stringify({ type: event.type, timestamp: at.toISOString(), data: event.data });
}

export function createWebhooksService(deps: Pick<ModuleDeps, 'db' | 'clock' | 'config'>, kick: (deliveryIds: string[]) => Promise<void>) {
  const { db, clock, config } = deps;

  async function checkedUrl(raw: unknown): Promise<string> {
    if (typeof raw !== 'string' || raw.trim() === '') throw new AppError('invalid_request', 'Enter the https URL that should receive the events.');
    const text = raw.trim();
    if (text.length > MAX_URL_LENGTH) throw new AppError('invalid_request', `The URL must be at most ${MAX_URL_LENGTH} characters.`);
    try {
      return (await checkFetchTarget(text, { allowLoopback: config.outbound.allowLoopback })).toString();
    } catch (err) {
      if (!(err instanceof SafeFetchError)) throw err;
      const why: Record<string, string> = {
        invalid_url: 'is not a valid absolute URL without a user name or password',
        scheme_not_allowed: 'must start with https://',
        address_not_allowed: 'points at a private, loopback, link-local or otherwise reserved address',
        dns_failed: 'has a host name that does not resolve',
      };
      throw new AppError('invalid_request', `The webhook URL ${why[err.code] ?? 'cannot be used'}.`);
    }
  }

  return {
    async list(by: Actor) {
      const [endpoints, deliveries] = await Promise.all([repo.listEndpoints(db, by.account.id), repo.recentDeliveries(db, by.account.id, RECENT)]);
      return { endpoints: endpoints.map(present), deliveries };
    },

    async endpoints(by: Actor): Promise<EndpointView[]> {
      return (await repo.listEndpoints(db, by.account.id)).map(present);
    },

    /** The account's most recent deliveries, newest first, each with every attempt. */
    async deliveries(by: Actor): Promise<DeliveryView[]> {
      return (await repo.recentDeliveries(db, by.account.id, RECENT)).map(presentDelivery);
    },

    /** Adds an endpoint; the secret is in this answer only. */
    async add(by: Actor, input: { url: unknown }): Promise<{ endpoint: EndpointView; secret: string }> {
      const url = await checkedUrl(input.url);
      if ((await repo.countEndpoints(db, by.account.id)) >= MAX_ENDPOINTS) {
        throw new AppError('invalid_request', `An account can have at most ${MAX_ENDPOINTS} webhook endpoints; delete one first.`);
      }
      const id = `whe_${crypto.randomUUID()}`;
      const secret = newSigningSecret();
      // The stored row, so this answer shows the endpoint exactly as every later list does.
      const row = await repo.insertEndpoint(db, { id, account_id: by.account.id, url, secret });
      return { endpoint: present(row), secret };
    },

    async remove(by: Actor, id: string): Promise<void> {
      if (!(await repo.deleteEndpoint(db, by.account.id, id))) throw new AppError('not_found', 'No such webhook endpoint.');
    },

    /** How the account's deliveries of these events stand: event id → the status of each endpoint's delivery. */
    async eventStatuses(accountId: string, eventIds: readonly string[]): Promise<Map<string, string[]>> {
      const out = new Map<string, string[]>();
      for (const r of await repo.eventStatuses(db, accountId, eventIds)) out.set(r.event_id, [...(out.get(r.event_id) ?? []), r.status]);
      return out;
    },

    /**
     * Delivers `event` to every endpoint of the account, once per endpoint however often it is
     * published. `within`: a transaction the event belongs to — the deliveries commit with it, and
     * the queue picks them up on its next sweep (a job cannot be sent from inside it).
     */
    async publish(accountId: string, event: WebhookEvent, options: { within?: Kysely<DB> } = {}): Promise<void> {
      if (!EVENT_ID.test(event.id)) throw new AppError('invalid_request', 'An event id is 1-200 letters, digits, or _ . : -.');
      if (!EVENT_TYPE.test(event.type)) throw new AppError('invalid_request', 'An event type is dotted lower-case words, like credential.issued.');
      const added = await repo.insertDeliveries(options.within ?? db, accountId, event, payloadOf(event, clock.now()));
      if (!options.within && added.length > 0) await kick(added);
    },
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
