// v2's team data and people routes (spec "v2 routes"): each binds an operation of
// modules/team-data/operations.ts (its scope, context, feature and role) to a method and path.
// All are private (Cache-Control: private, no-store); writes get Idempotency-Key handling.
import { route } from '../http/route.ts';

const follows = (who: 'me' | 'team') => [
  route('GET', `/${who}/follows`, `${who}.follows.list`),
  route('POST', `/${who}/follows`, `${who}.follows.create`),
  route('DELETE', `/${who}/follows/:id`, `${who}.follows.delete`),
  route('GET', `/${who}/follows/:id/alerts`, `${who}.follows.alerts.read`),
  route('PUT', `/${who}/follows/:id/alerts`, `${who}.follows.alerts.set`),
  route('DELETE', `/${who}/follows/:id/alerts`, `${who}.follows.alerts.clear`),
];

export const teamRoutes = [
  ...follows('me'),
  ...follows('team'),
  route('GET', '/team/notes', 'team.notes.list'),
  route('POST', '/team/notes', 'team.notes.create'),
  route('PATCH', '/team/notes/:id', 'team.notes.update', { body: 'change' }),
  route('DELETE', '/team/notes/:id', 'team.notes.delete'),
  route('GET', '/team/positions', 'team.positions.list'),
  route('PUT', '/team/positions', 'team.positions.replace'),
  route('POST', '/team/positions', 'team.positions.upsert', { status: 200 }),
  route('DELETE', '/team/positions/:id', 'team.positions.delete'),
  route('GET', '/team/legislation/:record/stance', 'team.stance.read'),
  route('PUT', '/team/legislation/:record/stance', 'team.stance.set'),
  route('DELETE', '/team/legislation/:record/stance', 'team.stance.clear'),
  route('GET', '/team/legislation/:record/targets', 'team.targets.read'),
  route('POST', '/team/legislation/:record/targets', 'team.targets.add', { status: 200 }),
  route('DELETE', '/team/legislation/:record/targets/:personId', 'team.targets.remove'),
  route('POST', '/team/legislation/:record/targets/:personId/contacted', 'team.targets.contacted.add', { status: 200 }),
  route('DELETE', '/team/legislation/:record/targets/:personId/contacted', 'team.targets.contacted.remove'),
  route('GET', '/team/dashboards', 'team.dashboards.list'),
  route('POST', '/team/dashboards', 'team.dashboards.create'),
  route('PATCH', '/team/dashboards/:id', 'team.dashboards.update', { body: 'change' }),
  route('DELETE', '/team/dashboards/:id', 'team.dashboards.delete'),
  route('GET', '/team/scorecard', 'team.scorecard.read'),
];

export const peopleRoutes = [
  route('GET', '/people', 'people.team.list'),
  route('GET', '/people/:id', 'people.team.read'),
  route('GET', '/meetings/:id/testimony', 'testimony.list'),
];
