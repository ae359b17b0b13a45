// The page an agent registration email links to (decisions.md "Credentials"): it names the agent
// and what it will get, and only its Approve or Deny button — a POST with the form's CSRF token —
// decides. Opening the link (a GET, as mail scanners do) changes nothing.
import type { FastifyInstance } from 'fastify';
import { html } from 'hono/html';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../kernel/errors.ts';
import { type Scope, scopeCatalogue } from '../../kernel/access.ts';
import { field } from './form.ts';
import { csrfField, errorBox, formatTime, page, sendPage } from './layout.ts';
import { requireCsrf } from './security.ts';
import { formToken, viewerOf } from './signin-pages.ts';

const spent = html`${errorBox('This approval link has expired or was already used.')}
<p>If an agent still needs a key, it can ask again; a new email will come.</p>`;

export function agentApprovalPages(ctx: AppContext) {
  const registration = ctx.services.credentials.registration;
  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/agents/approve', async (request, reply) => {
      const code = (request.query as Record<string, unknown>).code;
      const pending = await registration.pendingApproval(code);
      if (!pending) return sendPage(reply, 400, page('Approval link not valid', viewerOf(request), spent));
      const body = html`<p>An agent asks for a Council Tracker API key for <strong>${pending.email}</strong>.</p>
<table>
  <tr><th>Agent</th><td>${pending.agentName}</td></tr>
  <tr><th>Says it is from</th><td>${pending.agentUri ?? 'no address given'}</td></tr>
  <tr><th>Asked until</th><td>${formatTime(pending.expiresAt.toISOString())}</td></tr>
</table>
<h2>What it will get</h2>
<ul>${pending.scopes.map((s) => html`<li><code>${s}</code> — ${scopeCatalogue[s as Scope]?.description ?? s}</li>`)}</ul>
<p>It will <strong>not</strong> be able to read or change your follows, positions or settings, act for any team, or send email.
The key appears in your account's key list, where you can revoke it at any time.</p>
<form method="post" action="/agents/approve">
  ${csrfField(formToken(ctx, request, reply))}
  <input type="hidden" name="code" value="${String(code)}">
  <button type="submit" name="decision" value="approve">Approve</button>
  <button type="submit" name="decision" value="deny">Deny</button>
</form>`;
      return sendPage(reply, 200, page(`Approve "${pending.agentName}"?`, viewerOf(request), body));
    });

    app.post('/agents/approve', { preHandler: requireCsrf(ctx) }, async (request, reply) => {
      const decision = field(request.body, 'decision');
      if (decision !== 'approve' && decision !== 'deny') throw new AppError('invalid_request', 'Choose Approve or Deny.');
      let outcome: 'approved' | 'denied';
      try {
        outcome = await registration.decide(field(request.body, 'code'), decision);
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        return sendPage(reply, 400, page('Approval link not valid', viewerOf(request), spent));
      }
      const body =
        outcome === 'approved'
          ? html`<p class="notice" role="status">Approved. The agent can now collect its key; it will appear under <a href="/account">your account</a>'s API keys, where you can revoke it.</p>`
          : html`<p class="notice" role="status">Denied. The agent gets no key.</p>`;
      return sendPage(reply, 200, page(outcome === 'approved' ? 'Agent approved' : 'Agent denied', viewerOf(request), body));
    });
  };
}
