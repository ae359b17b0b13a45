// The public website: a page for every kind of record, each with its Markdown variant, open to
// everyone without a credential (spec: web pages and their `.md` variants stay open). Pages perform
// the same catalogue operations as the API, as the website visitor (page-route.ts).
import type { FastifyInstance } from 'fastify';
import type { OperationId } from '../../catalogue.ts';
import type { AppContext } from '../../context.ts';
import { type PageDef, registerPage, sendPageError } from './page-route.ts';
import { pickerRoutes } from './picker-routes.ts';
import { bodyPages } from './views/bodies.ts';
import { comparePages } from './views/compare.ts';
import { homePages } from './views/home.ts';
import { lobbyingPages } from './views/lobbying.ts';
import { matterPages } from './views/matters.ts';
import { meetingPages } from './views/meetings.ts';
import { moneyPages } from './views/money.ts';
import { peoplePages } from './views/people.ts';
import { searchPages } from './views/search.ts';

export const pageDefs: readonly PageDef[] = [
  ...homePages,
  ...searchPages,
  ...matterPages,
  ...meetingPages,
  ...peoplePages,
  ...comparePages,
  ...bodyPages,
  ...moneyPages,
  ...lobbyingPages,
];

/** Operations only the pages bind (the route inventory counts them as bound). */
export const pageOperations: readonly OperationId[] = [
  'people.public.record.read',
  'money.contributors.read',
  'followers.count.read',
  'committee-history.read',
];

export function pagesSurface(ctx: AppContext) {
  return async function pages(app: FastifyInstance): Promise<void> {
    app.setErrorHandler(async (error, request, reply) => sendPageError(request, reply, error, ctx.config.baseUrl));
    for (const def of pageDefs) registerPage(app, ctx, def);
    await app.register(pickerRoutes(ctx));
  };
}
