// The team dashboard: server-rendered pages for signed-in members of a team (Legislation,
// positions, follows, notes, target lists, analytics, people) that update live through the
// team's event stream. Every change calls the same team-data service functions as v2, with the
// person's session as the actor. Sign-in, cookies, CSRF and the page shell come from surfaces/web.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { usePageErrors } from '../web/errors.ts';
import { useFormBodies } from '../web/form.ts';
import { loadSession } from '../web/security.ts';
import { actRoutes } from './act-routes.ts';
import { analyticsPages } from './analytics-pages.ts';
import { assetRoutes } from './assets.ts';
import { chartFormPages } from './chart-forms.ts';
import { eventsRoute } from './events-route.ts';
import { followAlertsPages } from './follow-alerts-pages.ts';
import { followsPages } from './follows-pages.ts';
import { legislationPages } from './legislation-pages.ts';
import { notesPages } from './notes-pages.ts';
import { peoplePages } from './people-pages.ts';
import { positionsPages } from './positions-pages.ts';
import { scorecardPage } from './scorecard-page.ts';
import { recordPages } from './record-pages.ts';
import { targetsPages } from './targets-pages.ts';

export interface DashboardOptions {
  /** How often an idle event stream gets a comment line (default 15 s). */
  heartbeatMs?: number;
}

export function dashboardSurface(ctx: AppContext, options: DashboardOptions = {}) {
  return async function dashboard(app: FastifyInstance): Promise<void> {
    useFormBodies(app);
    app.addHook('onRequest', loadSession(ctx));
    // Open event streams would hold the server open: end them before it closes.
    app.addHook('preClose', async () => {
      await ctx.services.live.hub.close();
    });
    usePageErrors(app);
    await app.register(assetRoutes);
    await app.register(eventsRoute(ctx, options));
    await app.register(legislationPages(ctx));
    await app.register(positionsPages(ctx));
    await app.register(followsPages(ctx));
    await app.register(followAlertsPages(ctx));
    await app.register(notesPages(ctx));
    await app.register(targetsPages(ctx));
    await app.register(analyticsPages(ctx));
    await app.register(chartFormPages(ctx));
    await app.register(scorecardPage(ctx));
    await app.register(peoplePages(ctx));
    await app.register(recordPages(ctx));
    await app.register(actRoutes(ctx));
  };
}
