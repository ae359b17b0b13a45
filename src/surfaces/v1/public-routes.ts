// v1's routes: each binds an operation of the catalogue (modules/*/operations.ts) to a method and
// path. v2 serves the same table under its own prefix and renderer.
import { route } from '../http/route.ts';

export const meRoutes = [route('GET', '/me', 'me.read')];

export const publicRoutes = [
  route('GET', '/matters', 'matters.list'),
  route('GET', '/matters/:record', 'matters.read'),
  route('GET', '/roll-calls', 'roll-calls.list'),
  route('GET', '/roll-calls/:id', 'roll-calls.read'),
  route('GET', '/votes', 'votes.list'),
  route('GET', '/meetings', 'meetings.list'),
  route('GET', '/meetings/:id', 'meetings.read'),
  route('GET', '/bodies', 'bodies.list'),
  route('GET', '/bodies/:id', 'bodies.read'),
  route('GET', '/bodies/:id/actions', 'bodies.actions.list'),
  route('GET', '/people', 'people.public.list'),
  route('GET', '/people/:id', 'people.public.read'),
  route('GET', '/wards', 'wards.locate'),
  route('GET', '/council/compare', 'council.compare.read'),
  route('GET', '/search', 'search.read'),
  route('GET', '/sources', 'sources.read'),
  route('GET', '/money/committees', 'money.committees.list'),
  route('GET', '/money/committees/:id', 'money.committees.read'),
  route('GET', '/money/receipts', 'money.receipts.list'),
  route('GET', '/money/expenditures', 'money.expenditures.list'),
  route('GET', '/money/totals', 'money.totals.read'),
  route('GET', '/lobbying/lobbyists', 'lobbying.lobbyists.list'),
  route('GET', '/lobbying/lobbyists/:id', 'lobbying.lobbyists.read'),
  route('GET', '/lobbying/clients', 'lobbying.clients.list'),
  route('GET', '/lobbying/clients/:id', 'lobbying.clients.read'),
  route('GET', '/lobbying/employers', 'lobbying.employers.list'),
  route('GET', '/lobbying/employers/:id', 'lobbying.employers.read'),
  route('GET', '/lobbying/compensation', 'lobbying.compensation.list'),
  route('GET', '/lobbying/expenditures', 'lobbying.expenditures.list'),
  route('GET', '/lobbying/contributions', 'lobbying.contributions.list'),
  route('GET', '/lobbying/gifts', 'lobbying.gifts.list'),
  route('GET', '/lobbying/activity', 'lobbying.activity.list'),
];

/** AI answers (public.ai), in v1 and v2 alike. An answer is made, not stored: 200, not 201. */
export const answerRoutes = [route('POST', '/answers', 'answers.create', { status: 200 })];
