// Shared set-up of the answers tests: a real service, a key that may ask for AI answers (with
// the operator's raised limits, so a table of questions is not refused by them), and asking.
import type { LightMyRequestResponse } from 'fastify';
import type { Scope } from '../../../src/kernel/access.ts';
import { operator } from '../../../src/kernel/actor.ts';
import type { TestContext } from '../../helpers/context.ts';

let n = 0;
export async function answerKey(t: TestContext, options: { scopes?: Scope[]; aiPerDay?: number } = {}): Promise<{ key: string; accountId: string }> {
  const account = await t.ctx.services.accounts.create({ email: `asker-${process.pid}-${++n}@example.org` });
  await t.ctx.services.accounts.setLimits(operator, {
    accountId: account.id,
    limits: { requestsPerDay: 100_000, requestsPerMinute: 100_000, aiAnswersPerDay: options.aiPerDay ?? 10_000 },
  });
  const { key } = await t.ctx.services.credentials.keys.create({
    accountId: account.id,
    name: 'answers',
    scopes: options.scopes ?? ['public.read', 'public.ai'],
  });
  return { key, accountId: account.id };
}

export function ask(
  t: TestContext,
  key: string,
  question: unknown,
  options: { version?: 'v1' | 'v2'; headers?: Record<string, string> } = {},
): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: 'POST',
    url: `/api/${options.version ?? 'v1'}/answers`,
    headers: { authorization: `Bearer ${key}`, ...options.headers },
    payload: { question } as object,
  });
}
