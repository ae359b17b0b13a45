// A v2 app with real write routes, for testing the write-route machinery (idempotency, CSRF) before
// the team-data routes exist. The routes insert into a table the test creates, so every effect
// is a real row; the v2 surface mounts them through the same registration as every other route.
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { AppContext } from '../../../src/context.ts';
import { createFastify } from '../../../src/app.ts';
import { createCatalogue } from '../../../src/catalogue.ts';
import { bindOperations, operationsOf } from '../../../src/kernel/catalogue.ts';
import { access } from '../../../src/kernel/access.ts';
import { createPerformer } from '../../../src/kernel/perform.ts';
import { type RouteDef, route } from '../../../src/surfaces/http/route.ts';
import { v2Surface } from '../../../src/surfaces/v2/index.ts';

export interface Behaviour {
  /** The next this many runs throw an unexpected error (a 500) before writing anything. */
  failNext: number;
  /** The next this many runs throw (a 500) after writing their row. */
  failAfterWrite: number;
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

/**
 * Test operations: they write real rows. They need public.ai and count as AI answers, so a test
 * can see that an idempotent replay uses none.
 */
export function effectOperations(ctx: AppContext, behaviour: Behaviour) {
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
    if (behaviour.failAfterWrite > 0) {
      behaviour.failAfterWrite--;
      throw new Error('the handler failed after writing');
    }
    return { id: Number(r.rows[0]!.id), note, owner };
  }
  const op = operationsOf<null>();
  const common = { tags: ['test'], access: access.open('public.ai'), limit: 'ai', effect: 'write', output: Effect } as const;
  const Note = Type.Object({ note: Type.String({ minLength: 1 }) }, { additionalProperties: false });
  return bindOperations(null, {
    'test.effects.record': op({ ...common, summary: 'Record an effect', input: Note, run: (_svc, actor, input) => run(input.note, actor.account.id) }),
    'test.effects.delete': op({
      ...common,
      summary: 'Record a deletion',
      input: Note,
      run: (_svc, actor, input) => run(`deleted:${input.note}`, actor.account.id),
    }),
  });
}

export const effectRoutes: RouteDef[] = [
  route('POST', '/effects', 'test.effects.record' as never, { location: () => '/api/v2/effects' }),
  route('PUT', '/effects/:note', 'test.effects.record' as never),
  route('DELETE', '/effects/:note', 'test.effects.delete' as never),
];

/** The v2 surface with the effect routes mounted, on the app's own settings. */
export async function effectsApp(ctx: AppContext, behaviour: Behaviour): Promise<FastifyInstance> {
  // The service's own catalogue and these operations, through the same performer and limits.
  const performer = createPerformer<any>([...createCatalogue(ctx.services), ...effectOperations(ctx, behaviour)], ctx.services.credentials.limits);
  const withEffects = { ...ctx, performer };
  const app = createFastify(withEffects);
  await app.register(v2Surface(withEffects, { routes: effectRoutes }), { prefix: '/api' });
  await app.ready();
  return app;
}
