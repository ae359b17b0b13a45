// The matter page answered by the database every time, in its own process: the same page
// definition and rendering as the service (src/surfaces/pages), mounted under /db without kept
// answers, so each request performs the page's operations and renders it anew.
import { createFastify } from '../src/app.ts';
import { loadConfig } from '../src/kernel/config.ts';
import { createContext } from '../src/context.ts';
import { pageDefs } from '../src/surfaces/pages/index.ts';
import { registerPage, sendPageError } from '../src/surfaces/pages/page-route.ts';

const ctx = await createContext(loadConfig(), { migrate: false });
const def = pageDefs.find((d) => d.path === '/matters/:record');
if (!def) throw new Error('the page /matters/:record does not exist');
const app = createFastify(ctx);
app.get('/health', async () => ({ status: 'ok' }));
await app.register(
  async (scope) => {
    scope.setErrorHandler(async (error, request, reply) => sendPageError(request, reply, error, ctx.config.baseUrl));
    registerPage(scope, ctx, { ...def, keep: false });
  },
  { prefix: '/db' },
);
await app.listen({ port: ctx.config.port, host: ctx.config.host });
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(
    signal,
    () =>
      void app
        .close()
        .then(() => ctx.close())
        .then(() => process.exit(0)),
  );
}
