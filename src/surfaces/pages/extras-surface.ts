// The open parts of the website that need no credential besides the record pages: the wards, the
// Atom feeds, the agent guide (/llms.txt, /auth.md), the API docs, sitemap.xml and robots.txt.
// Each performs the API's operations as the visitor and answers with `Cache-Control: public`
// and an ETag (If-None-Match answers 304); errors are HTML pages with their status.
import etag from '@fastify/etag';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { usePageErrors } from '../web/errors.ts';
import { feedsSurface } from '../feeds/index.ts';
import { guideSurface } from '../guide/index.ts';
import { wardPages } from './ward-pages.ts';

export function webExtrasSurface(ctx: AppContext) {
  return async function webExtras(app: FastifyInstance): Promise<void> {
    await app.register(etag);
    usePageErrors(app);
    await app.register(wardPages(ctx));
    await app.register(feedsSurface(ctx));
    await app.register(guideSurface(ctx));
  };
}
