// The agent guide and the files for crawlers and readers: /llms.txt, /auth.md, /docs,
// robots.txt and sitemap.xml. Open to everyone, public and ETagged like every open answer.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { contentTypes, sendOpen } from '../pages/public-answer.ts';
import { authMd } from './auth-md.ts';
import { docsPages } from './docs-page.ts';
import { llmsTxt } from './llms-txt.ts';
import { sitemapRoutes } from './sitemap.ts';

export function guideSurface(ctx: AppContext) {
  // Made from the configuration and the catalogue alone: once, at start.
  const llms = llmsTxt(ctx.config);
  const auth = authMd(ctx.config, ctx.performer.all());
  return async function guide(app: FastifyInstance): Promise<void> {
    app.get('/llms.txt', async (_request, reply) => sendOpen(reply, 'text/plain; charset=utf-8', llms));
    app.get('/auth.md', async (_request, reply) => sendOpen(reply, contentTypes.markdown, auth));
    await app.register(docsPages(ctx.config));
    await app.register(sitemapRoutes(ctx));
  };
}
