// The server-rendered website of people and teams: sign-in by email link, the account page, a
// team's Settings → API keys and Members, and the development mailbox. Errors render as an HTML
// page with the error's status (house style: one renderer per surface).
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { normalizeError } from '../../kernel/errors.ts';
import { accountPages } from './account-pages.ts';
import { useFormBodies } from './form.ts';
import { errorBox, page, sendPage } from './layout.ts';
import { mailboxPages } from './mailbox-pages.ts';
import { membersPages } from './members-pages.ts';
import { loadSession } from './security.ts';
import { signinPages, viewerOf } from './signin-pages.ts';
import { teamKeysPages } from './team-keys-pages.ts';

const titles: Record<number, string> = { 400: 'That did not work', 403: 'Not allowed', 404: 'Not found', 429: 'Too many requests', 503: 'Unavailable' };

export function webSurface(ctx: AppContext) {
  return async function web(app: FastifyInstance): Promise<void> {
    useFormBodies(app);
    app.addHook('onRequest', loadSession(ctx));
    app.setErrorHandler((error, request, reply) => {
      const err = normalizeError(error);
      if (err.status >= 500) request.log.error({ err: error }, 'request failed');
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      const title = titles[err.status] ?? (err.status >= 500 ? 'Something went wrong' : 'That did not work');
      const back = html`<p><a href="/account">Your account</a> · <a href="/signin">Sign in</a></p>`;
      return sendPage(reply, err.status, page(title, viewerOf(request), html`${errorBox(err.message)}${back}`));
    });
    await app.register(signinPages(ctx));
    await app.register(accountPages(ctx));
    await app.register(teamKeysPages(ctx));
    await app.register(membersPages(ctx));
    await app.register(mailboxPages(ctx));
  };
}
