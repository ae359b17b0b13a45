// v2's settings routes (issue 18 §1): the team's members for its owners and admins, and the
// person's own webhooks. Each binds an operation of modules/accounts/operations.ts or
// modules/webhooks/operations.ts; all are private, and writes get Idempotency-Key handling.
import { route } from '../http/route.ts';

export const memberRoutes = [
  route('GET', '/team/members', 'team.members.list'),
  route('POST', '/team/members', 'team.members.add'),
  route('PATCH', '/team/members/:accountId', 'team.members.role.set'),
  route('DELETE', '/team/members/:accountId', 'team.members.remove'),
];

export const webhookRoutes = [
  route('GET', '/me/webhooks', 'me.webhooks.list'),
  route('POST', '/me/webhooks', 'me.webhooks.create'),
  route('DELETE', '/me/webhooks/:id', 'me.webhooks.delete'),
  route('GET', '/me/webhooks/deliveries', 'me.webhooks.deliveries'),
];
