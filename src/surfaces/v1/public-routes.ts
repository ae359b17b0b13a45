// v1 public data routes.
import type { AppContext } from '../../context.ts';
import type { RouteDef } from '../http/route.ts';

export function publicRoutes(_ctx: AppContext): RouteDef[] {
  return [];
}
