// v2's settings routes for keys, connected apps and the security log: each binds an operation of
// modules/credentials/api-keys/operations.ts, oauth/operations.ts or events/operations.ts. A
// person's own (/me/…: personal credentials with me.keys.*) and a team's (/team/…: team
// credentials with team.keys.*; changes for owners and admins). All are private; writes get
// Idempotency-Key handling, and a stored answer never keeps a new key's value.
import { route } from '../http/route.ts';

const keys = (who: 'me' | 'team') => [
  route('GET', `/${who}/keys`, `${who}.keys.list`),
  route('POST', `/${who}/keys`, `${who}.keys.create`),
  route('PATCH', `/${who}/keys/:id`, `${who}.keys.update`, { body: 'change' }),
  route('DELETE', `/${who}/keys/:id`, `${who}.keys.revoke`),
  route('GET', `/${who}/apps`, `${who}.apps.list`),
  route('DELETE', `/${who}/apps/:id`, `${who}.apps.disconnect`),
];

export const keyRoutes = [...keys('me'), ...keys('team'), route('GET', '/me/security-log', 'me.security.read')];
