// Webhooks: an account's endpoints, signed deliveries of its events through the job queue.
// Tables: webhook_endpoints, webhook_deliveries, webhook_attempts (migration 0100).
import type { ModuleDeps } from '../../kernel/deps.ts';
import type { Jobs } from '../../kernel/jobs.ts';
import { createDelivery } from './delivery.ts';
import { createWebhooksService, type WebhooksService } from './service.ts';

export interface Webhooks extends WebhooksService {
  /** Starts delivering on this instance (the running service: workers.ts). */
  start(): Promise<void>;
  close(): Promise<void>;
}

export function createWebhooks(deps: ModuleDeps, others: { jobs: Jobs }): Webhooks {
  const delivery = createDelivery(deps, others.jobs);
  const service = createWebhooksService(deps, delivery.kick);
  return { ...service, start: delivery.start, close: delivery.stop };
}

export type { EndpointView, WebhookEvent } from './service.ts';
