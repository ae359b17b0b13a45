// The performer (kernel/perform.ts) on its own: the access check runs once and its refusal is
// counted (a 429 never is), an admission counts the operation's limit class or the one
// `beforeLimits` names, `execute` checks the input and runs once, and an AI answer held by a call
// that ends without an answer is given back exactly once — by `abandon`, by a refused input or by a
// failed run — while an answer given keeps it. The operations are the catalogue's own entries
// (answers.create, sources.read, team.stance.set, me.read) bound to services that record their
// calls; the Limiter, the kernel's edge, is a counter kept here.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Actor, Feature, Role } from '../../src/kernel/actor.ts';
import { bindOperations } from '../../src/kernel/catalogue.ts';
import { ManualClock } from '../../src/kernel/clock.ts';
import { AppError } from '../../src/kernel/errors.ts';
import type { LimitState } from '../../src/kernel/limit-state.ts';
import type { LimitClass, Scope } from '../../src/kernel/access.ts';
import { createPerformer, type Limiter } from '../../src/kernel/perform.ts';
import { answersOperations } from '../../src/modules/answers/operations.ts';
import { credentialsOperations } from '../../src/modules/credentials/operations.ts';
import { publicDataOperations } from '../../src/modules/public-data/operations.ts';
import { teamDataOperations } from '../../src/modules/team-data/operations.ts';

/** A day's requests and AI answers per owner, as the limits module keeps them, in memory. */
class CountingLimiter implements Limiter {
  day = 5;
  ai = 2;
  readonly consumed: LimitClass[] = [];
  readonly givenBack: Date[] = [];
  failGiveBack = false;
  /** Data requests this limiter may count without waiting (a block of units held in memory). */
  held = 0;
  private state(): LimitState {
    return {
      day: { limit: 5, remaining: this.day, reset: 60 },
      minute: { limit: 60, remaining: 60, reset: 60 },
      ai: { limit: 2, remaining: this.ai, reset: 60 },
    };
  }
  async consume(_actor: Actor, limitClass: LimitClass): Promise<LimitState> {
    if (this.day === 0) throw new AppError('daily_limit', 'Daily request limit reached.');
    const ai = limitClass === 'ai' || limitClass === 'answer';
    if (ai && this.ai === 0) throw new AppError('ai_daily_limit', 'Daily AI answer limit reached.');
    this.consumed.push(limitClass);
    this.day -= 1;
    if (ai) this.ai -= 1;
    return this.state();
  }
  consumeNow(_actor: Actor, limitClass: LimitClass): LimitState | undefined {
    if (limitClass !== 'data' || this.held === 0) return undefined;
    this.held -= 1;
    this.consumed.push(limitClass);
    this.day -= 1;
    return this.state();
  }
  async giveBackAnswer(_actor: Actor, countedAt: Date): Promise<LimitState> {
    if (this.failGiveBack) throw new Error('the limits store is away');
    this.givenBack.push(countedAt);
    this.ai += 1;
    return this.state();
  }
}

/** `withheld`: scopes the credential was given that the person's role takes away now (verify.ts decides). */
function actorWith(scopes: Scope[], team?: { role: Role; features: Feature[]; withheld?: Scope[] }): Actor {
  return {
    account: { id: 'a1', email: 'clerk@example.org', name: null },
    team: team ? { id: 't1', name: 'Ward office', role: team.role, features: team.features } : null,
    credential: { id: 'k1', type: 'api_key', name: 'key', kind: 'scoped', expiresAt: null },
    scopes,
    ...(team?.withheld ? { withheld: team.withheld } : {}),
    limitsOwner: team ? { type: 'team', id: 't1' } : { type: 'account', id: 'a1' },
    limits: { requestsPerDay: 5, requestsPerMinute: 60, aiAnswersPerDay: 2 },
  };
}

type Id = 'answers.create' | 'sources.read' | 'team.stance.set' | 'me.read';
const call = { surface: 'v2' } as const;

/** A performer over four catalogue entries; `answer` decides what the answers service does. */
function world(answer: (question: string) => Promise<unknown> = async (q) => ({ answer: `About ${q}.` })) {
  const limiter = new CountingLimiter();
  const clock = new ManualClock(new Date('2026-03-02T15:00:00Z'));
  const ran: string[] = [];
  const did = <T>(id: string, value: T): T => {
    ran.push(id);
    return value;
  };
  const answers = { create: async (_a: Actor, input: { question: string }) => did('answers.create', answer(input.question)) };
  const publicData = { sources: async () => did('sources.read', { data: [] }) };
  const teamData = { stance: { set: async () => did('team.stance.set', { stance: 'support' }) } };
  const credentials = { limits: {} };
  const operations = [
    ...bindOperations(answers as never, { 'answers.create': answersOperations['answers.create'] }),
    ...bindOperations(publicData as never, { 'sources.read': publicDataOperations['sources.read'] }),
    ...bindOperations(teamData as never, { 'team.stance.set': teamDataOperations['team.stance.set'] }),
    ...bindOperations(credentials as never, { 'me.read': credentialsOperations['me.read'] }),
  ];
  return { performer: createPerformer<Id>(operations, limiter, clock), limiter, clock, ran };
}

const reader = actorWith(['public.read', 'public.ai']);

/** The AppError a call is refused with (failing the test when it is not refused). */
const refusal = (p: Promise<unknown>): Promise<AppError> =>
  p.then(
    () => assert.fail('expected a refusal'),
    (e: unknown) => {
      assert.ok(e instanceof AppError, String(e));
      return e;
    },
  );

describe('the access refusal', () => {
  test('a missing scope is scope_missing, counted as one request, with the limits on it; nothing runs', async () => {
    const { performer, limiter, ran } = world();
    const err = await refusal(performer.admit(actorWith(['public.read']), 'answers.create', { call }));
    assert.ok(err instanceof AppError);
    assert.equal(err.code, 'scope_missing');
    assert.equal(err.message, 'This operation needs the public.ai scope.');
    assert.deepEqual(limiter.consumed, ['data'], 'a refusal counts one request, never an AI answer');
    assert.equal(err.limits?.day.remaining, 4);
    assert.equal(err.limits?.ai.remaining, 2);
    assert.deepEqual(ran, []);
  });

  test('uncounted (a page of the website): the same refusal, nothing counted, no limits', async () => {
    const { performer, limiter } = world();
    const err = await refusal(performer.admit(actorWith(['public.read']), 'answers.create', { call, count: false }));
    assert.equal((err as AppError).code, 'scope_missing');
    assert.equal((err as AppError).limits, undefined);
    assert.deepEqual(limiter.consumed, []);
  });

  test('no request left: the refusal is the 429, and nothing is counted', async () => {
    const { performer, limiter } = world();
    limiter.day = 0;
    await assert.rejects(performer.admit(actorWith([]), 'sources.read', { call }), (e: AppError) => e.code === 'daily_limit' && e.status === 429);
    assert.deepEqual(limiter.consumed, []);
  });

  test('the context comes before the scope; the role before the missing scope it cannot grant; then the feature and the role', async () => {
    const { performer } = world();
    const code = (actor: Actor, id: Id) =>
      performer.admit(actor, id, { call, count: false }).then(
        () => 'admitted',
        (e: AppError) => e.code,
      );
    assert.equal(await code(actorWith(['public.read']), 'team.stance.set'), 'team_only');
    assert.equal(await code(actorWith(['public.read'], { role: 'owner', features: ['team_data'] }), 'answers.create'), 'scope_missing');
    const member = { role: 'member' as const, features: ['team_data' as const] };
    assert.equal(await code(actorWith([], { ...member, withheld: ['team.positions.write'] }), 'team.stance.set'), 'forbidden', 'granted, but the role cannot');
    assert.equal(await code(actorWith([], member), 'team.stance.set'), 'scope_missing');
    assert.equal(await code(actorWith(['team.positions.write'], { role: 'owner', features: [] }), 'team.stance.set'), 'feature_required');
    assert.equal(await code(actorWith(['team.positions.write'], member), 'team.stance.set'), 'forbidden');
    assert.equal(await code(actorWith(['team.positions.write'], { role: 'admin', features: ['team_data'] }), 'team.stance.set'), 'admitted');
    assert.equal(await code(actorWith([]), 'me.read'), 'admitted', 'me.read needs no scope');
  });

  test('mayPerform answers the same question without counting or throwing', () => {
    const { performer, limiter } = world();
    assert.equal(performer.mayPerform(actorWith(['public.read']), 'sources.read'), true);
    assert.equal(performer.mayPerform(actorWith(['public.read']), 'answers.create'), false);
    assert.equal(performer.mayPerform(actorWith(['public.read']), 'team.stance.set'), false);
    assert.deepEqual(limiter.consumed, []);
  });
});

describe('admit', () => {
  test("counts the operation's limit class once and returns a frozen admission with the limits", async () => {
    const { performer, limiter, clock } = world();
    const admission = await performer.admit(reader, 'answers.create', { call });
    assert.deepEqual(limiter.consumed, ['ai']);
    assert.equal(admission.counted, 'ai');
    assert.equal(admission.operation.id, 'answers.create');
    assert.equal(admission.limits?.ai.remaining, 1);
    assert.deepEqual(admission.countedAt, clock.now());
    assert.ok(Object.isFrozen(admission));
    const uncounted = await performer.admit(reader, 'answers.create', { call, count: false });
    assert.equal(uncounted.counted, null);
    assert.equal(uncounted.limits, null);
    assert.deepEqual(limiter.consumed, ['ai']);
  });

  test('beforeLimits runs after the access check and may name the class counted instead (a replay uses no AI answer)', async () => {
    const { performer, limiter } = world();
    const steps: string[] = [];
    const replay = await performer.admit(reader, 'answers.create', {
      call,
      beforeLimits: async () => {
        steps.push('claim');
        return 'data';
      },
    });
    assert.equal(replay.counted, 'data');
    assert.deepEqual(limiter.consumed, ['data']);
    await performer
      .admit(actorWith(['public.read']), 'answers.create', {
        call,
        beforeLimits: async () => {
          steps.push('refused claim');
          return undefined;
        },
      })
      .catch(() => {});
    assert.deepEqual(steps, ['claim'], 'never run for a call the access check refuses');
  });

  test('a refusal from beforeLimits (a reused Idempotency-Key) is counted with its limits; a 429 from it is not', async () => {
    const { performer, limiter } = world();
    const conflict = await refusal(
      performer.admit(reader, 'sources.read', {
        call,
        beforeLimits: async () => {
          throw new AppError('idempotency_key_reused', 'That Idempotency-Key was used for another request.');
        },
      }),
    );
    assert.equal(conflict.code, 'idempotency_key_reused');
    assert.equal(conflict.limits?.day.remaining, 4);
    assert.deepEqual(limiter.consumed, ['data']);
    limiter.ai = 0;
    await assert.rejects(performer.admit(reader, 'answers.create', { call }), (e: AppError) => e.code === 'ai_daily_limit' && !e.limits);
    assert.deepEqual(limiter.consumed, ['data'], 'the AI limit refusal counts nothing');
  });
});

describe('admitNow', () => {
  test('admits without waiting when the limiter counts from memory; undefined, with nothing counted, when it cannot', async () => {
    const { performer, limiter, clock } = world();
    assert.equal(performer.admitNow(reader, 'sources.read', { call }), undefined);
    assert.deepEqual(limiter.consumed, []);
    limiter.held = 1;
    const admission = performer.admitNow(reader, 'sources.read', { call });
    assert.ok(admission);
    assert.equal(admission.counted, 'data');
    assert.equal(admission.limits?.day.remaining, 4);
    assert.deepEqual(admission.countedAt, clock.now());
    assert.ok(Object.isFrozen(admission));
    assert.deepEqual(limiter.consumed, ['data']);
    // Held units used up: left to admit, which counts through the store.
    assert.equal(performer.admitNow(reader, 'sources.read', { call }), undefined);
    assert.deepEqual(limiter.consumed, ['data']);
    // It runs as any admission does.
    assert.deepEqual(await performer.execute(admission, {}), { data: [] });
  });

  test('a refusal, a step before the limits or a class counted exactly is left to admit: nothing counted, nothing thrown', async () => {
    const { performer, limiter, ran } = world();
    limiter.held = 5;
    assert.equal(performer.admitNow(actorWith([]), 'sources.read', { call }), undefined);
    assert.equal(performer.admitNow(reader, 'sources.read', { call, beforeLimits: async () => undefined }), undefined);
    assert.equal(performer.admitNow(reader, 'answers.create', { call }), undefined);
    assert.deepEqual(limiter.consumed, []);
    // admit then refuses as always, counting the refusal.
    const err = await refusal(performer.admit(actorWith([]), 'sources.read', { call }));
    assert.equal(err.code, 'scope_missing');
    assert.deepEqual(limiter.consumed, ['data']);
    assert.deepEqual(ran, []);
  });

  test('uncounted (a page of the website): admitted without the limiter', () => {
    const { performer, limiter } = world();
    const admission = performer.admitNow(reader, 'sources.read', { call, count: false });
    assert.equal(admission?.counted, null);
    assert.equal(admission?.limits, null);
    assert.deepEqual(limiter.consumed, []);
  });
});

describe('execute, settle and abandon', () => {
  test('an answer given keeps its AI answer; the admission runs once, and abandoning it afterwards changes nothing', async () => {
    const { performer, limiter, ran } = world();
    const admission = await performer.admit(reader, 'answers.create', { call });
    assert.deepEqual(await performer.execute(admission, { question: 'the budget' }), { answer: 'About the budget.' });
    await assert.rejects(performer.execute(admission, { question: 'again' }), /runs once/);
    assert.equal(await performer.abandon(admission), null);
    assert.deepEqual(limiter.givenBack, []);
    assert.equal(limiter.ai, 1);
    assert.deepEqual(ran, ['answers.create']);
  });

  test("input refused by the operation's schema: nothing runs, the AI answer goes back once, and the error carries the limits then", async () => {
    const { performer, limiter, ran } = world();
    const admission = await performer.admit(reader, 'answers.create', { call });
    const err = await refusal(performer.execute(admission, { question: '' }));
    assert.equal(err.code, 'invalid_request');
    assert.match(err.message, /input of answers\.create/);
    assert.equal(err.limits?.ai.remaining, 2, 'the given-back answer shows');
    assert.deepEqual(limiter.givenBack, [admission.countedAt]);
    assert.deepEqual(ran, []);
    await performer.abandon(admission);
    assert.equal(limiter.givenBack.length, 1, 'given back once');
  });

  test('a run that fails gives the AI answer back; if the store cannot take it back it stays counted and the error keeps the admitted limits', async () => {
    const { performer, limiter } = world(async () => {
      throw new AppError('upstream_unavailable', 'The model did not answer in time.');
    });
    const first = await performer.admit(reader, 'answers.create', { call });
    const err = await refusal(performer.execute(first, { question: 'the budget' }));
    assert.equal(err.code, 'upstream_unavailable');
    assert.equal(err.limits?.ai.remaining, 2);
    limiter.failGiveBack = true;
    const second = await performer.admit(reader, 'answers.create', { call });
    const again = await refusal(performer.execute(second, { question: 'the budget' }));
    assert.equal(again.code, 'upstream_unavailable', "the operation's error, not the store's");
    assert.deepEqual(again.limits, second.limits);
    assert.equal(limiter.ai, 1);
  });

  test('abandon before running gives the AI answer back once and returns the limits then; the admission cannot run after', async () => {
    const { performer, limiter, ran } = world();
    const admission = await performer.admit(reader, 'answers.create', { call });
    const limits = await performer.abandon(admission);
    assert.equal(limits?.ai.remaining, 2);
    assert.deepEqual(await performer.abandon(admission), limits, 'safe to call again: the same limits, nothing given twice');
    assert.equal(limiter.givenBack.length, 1);
    await assert.rejects(performer.execute(admission, { question: 'the budget' }), /not after it was abandoned/);
    assert.deepEqual(ran, []);
  });

  test('abandon while the call still runs (an A2A task answered after its request returned) leaves it to settle when it ends', async () => {
    let finish!: (v: unknown) => void;
    const { performer, limiter } = world(() => new Promise((resolve) => (finish = resolve)));
    const admission = await performer.admit(reader, 'answers.create', { call });
    const running = performer.execute(admission, { question: 'the budget' });
    assert.equal(await performer.abandon(admission), null);
    assert.deepEqual(limiter.givenBack, []);
    finish({ answer: 'Late.' });
    await running;
    assert.deepEqual(limiter.givenBack, [], 'answered: the AI answer is used');
  });

  test('abandoning a call that counted no AI answer gives nothing back', async () => {
    const { performer, limiter } = world();
    assert.equal(await performer.abandon(await performer.admit(reader, 'sources.read', { call })), null);
    assert.equal(await performer.abandon(await performer.admit(reader, 'answers.create', { call, count: false })), null);
    assert.deepEqual(limiter.givenBack, []);
  });

  test('perform is admit, check and run; validated input is taken as checked', async () => {
    const { performer, limiter } = world();
    const { result, limits } = await performer.perform(reader, 'sources.read', {}, { call });
    assert.deepEqual(result, { data: [] });
    assert.equal(limits?.day.remaining, 4);
    await assert.rejects(performer.perform(reader, 'sources.read', { extra: 1 }, { call }), (e: AppError) => e.code === 'invalid_request');
    const admission = await performer.admit(reader, 'sources.read', { call });
    assert.deepEqual(await performer.execute(admission, { extra: 1 }, { validated: true }), { data: [] });
    assert.deepEqual(limiter.consumed, ['data', 'data', 'data']);
  });
});

test('one entry per id: a second definition of an id, or an unknown id, is a programming error', () => {
  const { performer } = world();
  const twice = [...performer.all(), performer.get('sources.read')];
  assert.throws(() => createPerformer(twice, new CountingLimiter()), /sources\.read is defined twice/);
  assert.throws(() => performer.get('sources.list' as Id), /No operation sources\.list/);
  assert.deepEqual(
    performer.all().map((op) => op.id),
    ['answers.create', 'sources.read', 'team.stance.set', 'me.read'],
  );
});
