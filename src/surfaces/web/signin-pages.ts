// Sign-in by email link (spec "Ways to obtain a credential", 3): ask for a link, open it (a GET
// that only shows a confirm button, because mail scanners open links), confirm (the POST that uses
// the link and starts a session), sign out here or everywhere.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { clientIp } from '../http/client-ip.ts';
import { field } from './form.ts';
import { csrfField, errorBox, type Html, page, sendPage, type Viewer } from './layout.ts';
import { setReturnTo, takeReturnTo } from './return-to.ts';
import { dashboardHref } from './shell.ts';
import { anonymousCsrf, clearSessionCookie, requireCsrf, setSessionCookie, signedIn } from './security.ts';

export function viewerOf(request: FastifyRequest): Viewer | null {
  const s = request.signedIn;
  return s ? { email: s.actor.account.email, csrfToken: s.csrfToken, teams: request.teams ?? [] } : null;
}

/** The token a form on this page must carry: the session's when signed in, else the anonymous one. */
export function formToken(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string {
  return request.signedIn ? request.signedIn.csrfToken : anonymousCsrf(ctx, request, reply);
}

function signinForm(token: string, email: string, error: string | null): Html {
  return html`${errorBox(error)}
<p>Enter your email address. We will send you a link that signs you in; if you are new, it makes your account.</p>
<form method="post" action="/signin">
  ${csrfField(token)}
  <label>Email address <input type="email" name="email" value="${email}" required autocomplete="email" maxlength="254"></label>
  <button type="submit">Email me a sign-in link</button>
</form>`;
}

export function signinPages(ctx: AppContext) {
  const sessions = ctx.services.sessions;
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/signin', async (request, reply) => {
      // `/signin?return=/matters/…`: a public page (the same for everyone) asks to come back.
      const back = (request.query as Record<string, unknown>).return;
      if (typeof back === 'string') setReturnTo(ctx, reply, back);
      const viewer = viewerOf(request);
      const already = viewer ? html`<p class="notice">You are signed in as ${viewer.email}. <a href="/account">Go to your account</a>.</p>` : '';
      return sendPage(reply, 200, page('Sign in', viewer, html`${already}${signinForm(formToken(ctx, request, reply), '', null)}`));
    });

    app.post('/signin', { preHandler: requireCsrf(ctx) }, async (request, reply) => {
      const email = field(request.body, 'email');
      let mailbox: string;
      try {
        mailbox = await sessions.requestLink(email, clientIp(request, ctx.config.trustProxy));
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        const token = formToken(ctx, request, reply);
        // A 429 says when to try again (RFC 9110 §10.2.3).
        for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
        return sendPage(reply, err.status, page('Sign in', viewerOf(request), signinForm(token, email, err.message)));
      }
      const minutes = Math.max(1, Math.round(ctx.config.ttl.signinLink / 60));
      return sendPage(
        reply,
        200,
        page(
          'Check your email',
          viewerOf(request),
          html`<p class="notice">We sent a sign-in link to <strong>${mailbox}</strong>. It works once and expires in ${minutes} minutes.</p>
<p>No mail? Check your spam folder, or <a href="/signin">ask for another link</a>.</p>`,
        ),
      );
    });

    // Opening the link changes nothing: it shows who is signing in and a button that POSTs.
    app.get('/signin/verify', async (request, reply) => {
      const { code, return: back } = request.query as Record<string, unknown>;
      const link = await sessions.checkLink(code);
      const viewer = viewerOf(request);
      if (!link) {
        return sendPage(
          reply,
          400,
          page(
            'Sign-in link not valid',
            viewer,
            html`${errorBox('This sign-in link has expired or was already used.')}<p><a href="/signin">Ask for a new link</a>.</p>`,
          ),
        );
      }
      // An invitation's link names the team's dashboard: confirming returns there (same-origin paths only).
      if (typeof back === 'string') setReturnTo(ctx, reply, back);
      return sendPage(
        reply,
        200,
        page(
          'Confirm sign-in',
          viewer,
          html`<p>Sign in to Council Tracker as <strong>${link.email}</strong>?</p>
<form method="post" action="/signin/verify">
  ${csrfField(formToken(ctx, request, reply))}
  <input type="hidden" name="code" value="${String(code)}">
  <button type="submit">Sign in</button>
</form>`,
        ),
      );
    });

    app.post('/signin/verify', { preHandler: requireCsrf(ctx) }, async (request, reply) => {
      let started: Awaited<ReturnType<typeof sessions.useLink>>;
      try {
        started = await sessions.useLink(field(request.body, 'code'));
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        return sendPage(
          reply,
          400,
          page('Sign-in link not valid', viewerOf(request), html`${errorBox(err.message)}<p><a href="/signin">Ask for a new link</a>.</p>`),
        );
      }
      // A browser that was signed in as someone else ends that session rather than keeping two.
      if (request.signedIn) await sessions.signOut(request.signedIn.token);
      setSessionCookie(ctx, reply, started.token, started.expiresAt);
      // Back to the page that asked for sign-in, else the dashboard of a person's one team, else the account page.
      const back = takeReturnTo(ctx, request, reply);
      if (back) return reply.redirect(back, 303);
      const teams = await ctx.services.accounts.memberships(started.account.id);
      return reply.redirect(teams.length === 1 ? dashboardHref(teams[0]!.teamId) : '/account', 303);
    });

    app.post('/signout', { preHandler: requireCsrf(ctx) }, async (request, reply) => {
      const session = signedIn(request, reply);
      if (session) await sessions.signOut(session.token);
      clearSessionCookie(ctx, reply);
      return reply.redirect('/signin', 303);
    });

    app.post('/signout/everywhere', { preHandler: requireCsrf(ctx) }, async (request, reply) => {
      const session = signedIn(request, reply);
      if (session) await sessions.signOutEverywhere(session.actor.account.id);
      clearSessionCookie(ctx, reply);
      return reply.redirect('/signin', 303);
    });
  };
}
