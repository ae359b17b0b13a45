// The one table the generated security tests run over: every route of every JSON surface, read
// from the same route bindings the surfaces mount, each with the access of the catalogue's
// operation it binds, so a new route cannot skip its cases.
import type { FastifyInstance } from 'fastify';
import type { OperationId } from '../../src/catalogue.ts';
import type { AppContext } from '../../src/context.ts';
import type { Operation } from '../../src/kernel/catalogue.ts';
import { type Access, type LimitClass, type Scope, scopeCatalogue } from '../../src/kernel/access.ts';
import { type RouteDef, type RouteParts, routeParts } from '../../src/surfaces/http/route.ts';
import { v1Routes } from '../../src/surfaces/v1/index.ts';
import { v2Routes } from '../../src/surfaces/v2/index.ts';
import { alertsCases } from './alerts-cases.ts';
import { keyCases } from './key-cases.ts';
import { membersCases } from './members-cases.ts';
import { teamDataCases } from './team-data-cases.ts';

export type SurfaceName = 'v1' | 'v2';

export interface RouteRow {
  surface: SurfaceName;
  prefix: string;
  def: RouteDef;
  operationId: OperationId;
  /** The operation's access and limit class: what the cases are generated from. */
  op: Access & { limit: LimitClass };
  operation: Operation;
  /** The path, query and body schemas the route splits the operation's input into. */
  parts: RouteParts;
  /** "v2 GET /api/v2/matters/:record" */
  name: string;
}

/** Which key kind a route's caller holds: team routes and team scopes need a team key. */
export function keyKindFor(op: Access): 'personal' | 'team' {
  if (op.context === 'team') return 'team';
  return op.scopes.some((s) => scopeCatalogue[s].kind === 'team') ? 'team' : 'personal';
}

export function routeTable(ctx: AppContext): RouteRow[] {
  const surfaces: [SurfaceName, string, readonly RouteDef[]][] = [
    ['v1', '/api/v1', v1Routes],
    ['v2', '/api/v2', v2Routes],
  ];
  return surfaces.flatMap(([surface, prefix, defs]) =>
    defs.map((def) => {
      const operation = ctx.performer.get(def.operation);
      return {
        surface,
        prefix,
        def,
        operationId: def.operation,
        op: { ...operation.access, limit: operation.limit },
        operation,
        parts: routeParts(def, operation),
        name: `${surface} ${def.method} ${prefix}${def.path}`,
      };
    }),
  );
}

/** The route's URL with every path parameter filled (from `params`, else a placeholder). */
export function urlOf(row: RouteRow, params: Record<string, string> = {}): string {
  return row.prefix + row.def.path.replace(/:([A-Za-z0-9_]+)/g, (_m, name: string) => encodeURIComponent(params[name] ?? `sample-${name}`));
}

export function pathParams(def: RouteDef): string[] {
  return [...def.path.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
}

/** Scopes a key of `kind` could hold that the operation does not need: the wrong-scope key. */
export function otherScopes(op: Access, kind: 'personal' | 'team'): Scope[] {
  return (Object.keys(scopeCatalogue) as Scope[]).filter(
    (s) => (scopeCatalogue[s].kind === 'any' || scopeCatalogue[s].kind === kind) && !op.scopes.includes(s) && s !== 'people.private.read',
  );
}

/**
 * The other-team case: `setup` makes an object owned by team A (whose key is `ownerKey`) and
 * returns the path parameters (and body) naming it; the matrix then calls the route with a key of
 * team B holding the same scopes and expects 404 not_found.
 */
export interface OtherTeamCase {
  setup(fixture: {
    app: FastifyInstance;
    ctx: AppContext;
    ownerKey: string;
    ownerTeamId: string;
    ownerAccountId: string;
  }): Promise<{ params: Record<string, string>; body?: unknown }>;
}

/**
 * Every team route with a path parameter needs an entry here: a case, or the reason its ids are
 * not team-owned. The route-inventory test fails for a team route missing from this table.
 */
export const otherTeamCases: Partial<Record<OperationId, OtherTeamCase | { notTeamOwned: string }>> = {
  ...teamDataCases,
  ...alertsCases,
  ...keyCases,
  ...membersCases,
};

/** Routes whose ids could belong to another team: a team operation addressing something by id. */
export function needsOtherTeamCase(row: RouteRow): boolean {
  return keyKindFor(row.op) === 'team' && pathParams(row.def).length > 0;
}
