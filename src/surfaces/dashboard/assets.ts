// The dashboard's one script (assets/live.js), served from this site so the pages' CSP can allow
// scripts from 'self' only.
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';

const liveJs = readFileSync(new URL('./assets/live.js', import.meta.url), 'utf8');

export async function assetRoutes(app: FastifyInstance): Promise<void> {
  app.get('/dashboard/assets/live.js', async (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('Cache-Control', 'public, max-age=300').header('X-Content-Type-Options', 'nosniff').send(liveJs),
  );
}
