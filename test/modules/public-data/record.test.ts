// The summaries the public pages show, checked against the records they summarise: a person's
// voting record (attendance, agreement with the majority) recomputed from the roll calls; the
// largest contributors recomputed from the receipts; the follower count of a record.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { OperationId } from '../../../src/catalogue.ts';
import { visitor } from '../../../src/kernel/actor.ts';
import type { AppError } from '../../../src/kernel/errors.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { COMMITTEE_ID, seedPublicData, type Seeded } from '../../helpers/seed.ts';

let t: TestContext;
let seeded: Seeded;
before(async () => {
  t = await startTestContext();
  seeded = await seedPublicData(t.ctx.db);
});
after(async () => {
  await t.close();
});

const read = async (id: OperationId, input: unknown): Promise<any> =>
  (await t.ctx.performer.perform(visitor, id, input, { call: { surface: 'web' }, count: false })).result;

test("a person's voting record is the sum of their votes, with the majority of each roll call", async () => {
  // A voter in the split roll calls, so agreement is not trivially 100 %.
  const split = seeded.rollCalls.find((r) => r.yea > 0 && r.nay > 0)!;
  const detail = await read('roll-calls.read', { id: split.id });
  const dissenter = detail.votes.find((v: any) => v.value === (split.yea > split.nay ? 'Nay' : 'Yea'));
  for (const personId of [dissenter.personId, seeded.alders[0]!.id]) {
    let total = 0,
      yea = 0,
      nay = 0,
      absent = 0,
      decided = 0,
      withMajority = 0;
    for (const rc of seeded.rollCalls) {
      const votes = (await read('roll-calls.read', { id: rc.id })).votes;
      const v = votes.find((x: any) => x.personId === personId);
      if (!v) continue;
      total++;
      if (v.value === 'Yea') yea++;
      if (v.value === 'Nay') nay++;
      if (v.value === 'Absent' || v.value === 'Not Voting') absent++;
      if ((v.value === 'Yea' || v.value === 'Nay') && rc.yea !== rc.nay) {
        decided++;
        if ((v.value === 'Yea') === rc.yea > rc.nay) withMajority++;
      }
    }
    const record = await read('people.public.record.read', { id: personId });
    assert.equal(record.votes.total, total);
    assert.equal(record.votes.yea, yea);
    assert.equal(record.votes.nay, nay);
    assert.equal(record.votes.absent, absent);
    assert.equal(record.votes.decided, decided);
    assert.equal(record.votes.withMajority, withMajority);
    assert.equal(record.votes.alignment, Math.round((withMajority / decided) * 1000) / 1000);
    assert.equal(record.votes.attendance, Math.round(((total - absent) / total) * 1000) / 1000);
  }
  const r = await read('people.public.record.read', { id: dissenter.personId });
  assert.ok(r.votes.withMajority < r.votes.decided, 'a dissent counts against the majority');
});

test('unknown people are 404; the largest contributors sum the receipts', async () => {
  await assert.rejects(read('people.public.record.read', { id: 'nobody' }), (e: AppError) => e.status === 404);
  const top = await read('money.contributors.read', { committee: COMMITTEE_ID, limit: 50 });
  const sums = new Map<string, number>();
  let cursor: string | undefined;
  do {
    const page = await read('money.receipts.list', { committee: COMMITTEE_ID, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const x of page.data) sums.set(x.contributor, (sums.get(x.contributor) ?? 0) + Math.round(Number(x.amount) * 100));
    cursor = page.meta.nextCursor ?? undefined;
  } while (cursor);
  const expected = [...sums].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 50);
  assert.deepEqual(
    top.data.map((c: any) => [c.contributor, Math.round(Number(c.amount) * 100)]),
    expected,
  );
  const byPerson = await read('money.contributors.read', { person: seeded.alders.find((a) => a.ward === 1)!.id, limit: 50 });
  assert.deepEqual(byPerson, top, "an alderperson's committees give the same answer");
  await assert.rejects(read('money.contributors.read', { limit: 5 }), (e: AppError) => e.status === 400);
  await assert.rejects(read('money.contributors.read', { committee: 'committee-0', limit: 5 }), (e: AppError) => e.status === 404);
});

test('the follower count of a record counts personal and team follows, by its canonical record number', async () => {
  const record = seeded.rollCalls[0]!.recordNumber;
  assert.equal((await read('followers.count.read', { type: 'legislation', refId: record })).count, 0);
  const a = await t.ctx.services.accounts.create({ email: 'one@example.org' });
  const b = await t.ctx.services.accounts.create({ email: 'two@example.org' });
  for (const account of [a, b]) {
    const { key } = await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'k', scopes: ['me.follows.write'] });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v2/me/follows',
      headers: { authorization: `Bearer ${key}` },
      payload: { type: 'legislation', refId: record.toLowerCase() },
    });
    assert.equal(res.statusCode, 201, res.body);
  }
  const counted = await read('followers.count.read', { type: 'legislation', refId: record.toLowerCase() });
  assert.deepEqual(counted, { type: 'legislation', refId: record, count: 2 });
  await assert.rejects(read('followers.count.read', { type: 'legislation', refId: 'O1999-0000000' }), (e: AppError) => e.status === 404);
});
