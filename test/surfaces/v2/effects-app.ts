// A v2 app with real write routes, for testing the write-route machinery (idempotency, CSRF) before
// the team-data routes exist. The routes insert into a table the test creates, so every effect
// is a real row; the v2 surface mounts them through the same registration as every other route.
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../../../src/context.ts';
import { refuseUnsafeUrl } from '../../../src/surfaces/http/guard.ts';
import { defineRoute, type RouteDef } from '../../../src/surfaces/http/route.ts';
import { v2Surface } from '../../../src/surfaces/v2/index.ts';

export interface Behaviour {
  /** The next this many runs throw an unexpected error (a 500) before writing anything. */
  failNext: number;
  /** When set, a run waits for `gate` after `entered()`, so a test can act while it runs. */
  hold: { entered(): void; gate: Promise<void> } | null;
}

const Effect = Type.Object({ id: Type.Integer(), note: Type.String(), owner: Type.String() });

export async function createEffectsTable(ctx: AppContext): Promise<void> {
  await sql`create table if not exists test_effects (id serial primary key, note text not null, owner text not null)`.execute(ctx.db);
}

export async function countEffects(ctx: AppContext, note: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from test_effects where note = ${note}`.execute(ctx.db);
  return Number(r.rows[0]!.n);
}

export function effectRoutes(ctx: AppContext, behaviour: Behaviour): RouteDef[] {
  async function run(note: string, owner: string) {
    if (behaviour.failNext > 0) {
      behaviour.failNext--;
      throw new Error('the handler failed');
    }
    if (behaviour.hold) {
      const { entered, gate } = behaviour.hold;
      behaviour.hold = null;
      entered();
      await gate;
    }
    const r = await sql<{ id: number }>`insert into test_effects (note, owner) values (${note}, ${owner}) returning id`.execute(ctx.db);
    return { id: Number(r.rows[0]!.id), note, owner };
  }
  const common = { operation: 'answers.create' as const, tags: ['test'], response: Effect };
  return [
    defineRoute({
      ...common,
      method: 'POST',
      path: '/effects',
      summary: 'Record an effect',
      body: Type.Object({ note: Type.String({ minLength: 1 }) }),
      async handler({ body, actor, reply }) {
        reply.header('Location', '/api/v2/effects');
        return run(body.note, actor.account.id);
      },
    }),
    defineRoute({
      ...common,
      method: 'PUT',
      path: '/effects/:note',
      summary: 'Record an effect by name',
      params: Type.Object({ note: Type.String() }),
      async handler({ params, actor }) {
        return run(params.note, actor.account.id);
      },
    }),
    defineRoute({
      ...common,
      method: 'DELETE',
      path: '/effects/:note',
      summary: 'Record a deletion',
      params: Type.Object({ note: Type.String() }),
      async handler({ params, actor }) {
        return run(`deleted:${params.note}`, actor.account.id);
      },
    }),
  ];
}

/** The v2 surface with the effect routes mounted, on the app's own settings. */
export async function effectsApp(ctx: AppContext, behaviour: Behaviour): Promise<FastifyInstance> {
  const app = Fastify({ logger: false, ajv: { customOptions: { removeAdditional: false, coerceTypes: 'array', useDefaults: true } } });
  app.addHook('onRequest', async (request) => refuseUnsafeUrl(request));
  await app.register(v2Surface(ctx, { routes: effectRoutes(ctx, behaviour) }), { prefix: '/api' });
  await app.ready();
  return app;
}
