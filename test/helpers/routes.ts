// The route inventory of the whole app: every method and path every surface mounts, read with an
// onRoute hook while the surfaces are mounted on a fresh instance (as buildApp mounts them).
import type { AppContext } from '../../src/context.ts';
import { createFastify, mountSurfaces } from '../../src/app.ts';

export interface MountedRoute {
  method: string;
  url: string;
  /** The route's schemas as mounted (body, querystring, params, headers, response), if any. */
  schema?: Record<string, any>;
}

export async function mountedRoutes(ctx: AppContext): Promise<MountedRoute[]> {
  const app = createFastify(ctx);
  const routes: MountedRoute[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') routes.push({ method, url: route.url, ...(route.schema ? { schema: route.schema as Record<string, any> } : {}) });
    }
  });
  await mountSurfaces(app, ctx);
  await app.ready();
  await app.close();
  return routes;
}
