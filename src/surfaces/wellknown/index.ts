// OAuth protected resource metadata (RFC 9728) for each protected surface. A 401 from a surface
// points here through WWW-Authenticate.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { appliedMigrationCount, listMigrations } from '../../kernel/migrate.ts';
import { allScopes } from '../../kernel/access.ts';

export function protectedResourceMetadata(ctx: AppContext, surface: 'api' | 'mcp' | 'a2a' | null) {
  const base = ctx.config.baseUrl;
  return {
    // RFC 9728 §2: `resource` is the exact URL of the protected surface.
    resource: surface ? `${base}/${surface}` : base,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    scopes_supported: allScopes,
    resource_name: 'Council Tracker',
    resource_documentation: `${base}/llms.txt`,
  };
}

export function wellKnownSurface(ctx: AppContext) {
  return async function wellKnown(app: FastifyInstance): Promise<void> {
    const send = (surface: 'api' | 'mcp' | 'a2a' | null) => async () => protectedResourceMetadata(ctx, surface);
    app.get('/.well-known/oauth-protected-resource', send(null));
    app.get('/.well-known/oauth-protected-resource/api', send('api'));
    app.get('/.well-known/oauth-protected-resource/mcp', send('mcp'));
    app.get('/.well-known/oauth-protected-resource/a2a', send('a2a'));
    // `/health`: the process is alive and answering (a supervisor restarts it when not).
    app.get('/health', async () => ({ status: 'ok' }));
    // `/ready`: send this instance requests (a load balancer's check; deploy/haproxy.cfg): it is
    // serving, not draining, its database answers and holds every migration this code knows.
    app.get('/ready', async (_req, reply) => {
      const state = await readiness(ctx);
      if (state === 'ready') return reply.header('cache-control', 'no-store').send({ status: 'ready' });
      return reply
        .code(503)
        .header('cache-control', 'no-store')
        .header('retry-after', '5')
        .send({ status: state, detail: notReady[state], code: 'unavailable' });
    });
  };
}

const notReady = {
  starting: 'The service is starting.',
  draining: 'The service is shutting down; send requests to another instance.',
  unavailable: 'The database cannot be reached, or is not migrated for this version.',
} as const;

const knownMigrations = listMigrations();

async function readiness(ctx: AppContext): Promise<'ready' | keyof typeof notReady> {
  if (ctx.lifecycle.draining) return 'draining';
  if (!ctx.lifecycle.serving) return 'starting';
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), 2000);
  });
  const applied = appliedMigrationCount(ctx.db, knownMigrations).catch(() => null);
  const n = await Promise.race([applied, timeout]).finally(() => clearTimeout(timer));
  return n === knownMigrations.length ? 'ready' : 'unavailable';
}
