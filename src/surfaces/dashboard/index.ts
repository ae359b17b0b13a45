// The team dashboard: server-rendered pages for signed-in members of a team (Legislation,
// positions, follows, notes, target lists, analytics, people) that update live through the
// team's event stream. Every change calls the same team-data service functions as v2, with the
// person's session as the actor. Sign-in, cookies, CSRF and the page shell come from surfaces/web.
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { normalizeError } from '../../kernel/errors.ts';
import { useFormBodies } from '../web/form.ts';
import { errorBox, page } from '../web/layout.ts';
import { loadSession } from '../web/security.ts';
import { viewerOf } from '../web/signin-pages.ts';
import { analyticsPages } from './analytics-pages.ts';
import { assetRoutes } from './assets.ts';
import { eventsRoute } from './events-route.ts';
import { followsPages } from './follows-pages.ts';
import { sendDashboardPage } from './layout.ts';
import { legislationPages } from './legislation-pages.ts';
import { notesPages } from './notes-pages.ts';
import { peoplePages } from './people-pages.ts';
import { positionsPages } from './positions-pages.ts';
import { targetsPages } from './targets-pages.ts';

const titles: Record<number, string> = { 400: 'That did not work', 403: 'Not allowed', 404: 'Not found', 409: 'Changed meanwhile', 429: 'Too many requests', 503: 'Unavailable' };

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
    app.setErrorHandler((error, request, reply) => {
      const err = normalizeError(error);
      if (err.status >= 500) request.log.error({ err: error }, 'request failed');
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      const title = titles[err.status] ?? (err.status >= 500 ? 'Something went wrong' : 'That did not work');
      const back = html`<p><a href="/account">Your account</a></p>`;
      return sendDashboardPage(reply, err.status, page(title, viewerOf(request), html`${errorBox(err.message)}${back}`));
    });
    await app.register(assetRoutes);
    await app.register(eventsRoute(ctx, options));
    await app.register(legislationPages(ctx));
    await app.register(positionsPages(ctx));
    await app.register(followsPages(ctx));
    await app.register(notesPages(ctx));
    await app.register(targetsPages(ctx));
    await app.register(analyticsPages(ctx));
    await app.register(peoplePages(ctx));
  };
}
