// The server-rendered website of people and teams: sign-in by email link, the account page, a
// team's Settings → API keys and Members, and the development mailbox. Errors render as an HTML
// page with the error's status (./errors.ts, shared with the dashboard).
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { accountPages } from './account-pages.ts';
import { agentApprovalPages } from './agent-approval-pages.ts';
import { usePageErrors } from './errors.ts';
import { followsPages } from './follows-pages.ts';
import { useFormBodies } from './form.ts';
import { mailboxPages } from './mailbox-pages.ts';
import { membersPages } from './members-pages.ts';
import { loadSession } from './security.ts';
import { signinPages } from './signin-pages.ts';
import { teamKeysPages } from './team-keys-pages.ts';
import { unsubscribePages } from './unsubscribe-pages.ts';
import { webhooksPages } from './webhooks-pages.ts';

export function webSurface(ctx: AppContext) {
  return async function web(app: FastifyInstance): Promise<void> {
    useFormBodies(app);
    app.addHook('onRequest', loadSession(ctx));
    usePageErrors(app);
    await app.register(signinPages(ctx));
    await app.register(accountPages(ctx));
    await app.register(teamKeysPages(ctx));
    await app.register(membersPages(ctx));
    await app.register(mailboxPages(ctx));
    await app.register(unsubscribePages(ctx));
    await app.register(webhooksPages(ctx));
    await app.register(agentApprovalPages(ctx));
    await app.register(followsPages(ctx));
  };
}
