// An instance killed with SIGKILL under write load (issue 19, "Faults"). Three instances behind
// HAProxy on PostgreSQL; six clients write notes, follows, stances and positions through the
// balancer, each write with its own Idempotency-Key and retried until the service acknowledges
// it (a 502 from the balancer, a 503, a 409 in progress or a dropped connection is retried; any
// other answer fails the test). A third of the way through, one instance is killed mid-load.
// Afterwards the database holds exactly what the clients were told: every acknowledged note and
// follow once, every stance change in the history in the order acknowledged, every position with
// its last acknowledged label — none lost, none doubled (decisions.md "Envelopes and limits":
// one effect per key). Bounded: every write has at most 300 attempts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { sql } from 'kysely';
import { operator } from '../../src/kernel/actor.ts';
import { freshDatabase, startTestContext, type TestContext } from '../helpers/context.ts';
import { type Deployment, deploy, deploySkip as skip, stopProcess } from '../helpers/deployment.ts';
import { seedPublicData } from '../helpers/seed.ts';

const CLIENTS = 6;
const WRITES = 16;

let db: Awaited<ReturnType<typeof freshDatabase>>;
let d: Deployment;
let t: TestContext;
let key = '';
let teamId = '';
let records: string[] = [];

before(async () => {
  if (skip) return;
  db = await freshDatabase();
  t = await startTestContext({ databaseUrl: db.env.DATABASE_URL! });
  records = (await seedPublicData(t.ctx.db)).matters.map((m) => m.recordNumber);
  assert.ok(records.length >= 2 * CLIENTS, 'a stance bill and a position bill per client');
  d = await deploy(db.env);
  const owner = await t.ctx.services.accounts.create({ email: `killed-${crypto.randomUUID()}@example.org` });
  const unlimited = { requestsPerMinute: 100_000, requestsPerDay: 1_000_000 };
  await t.ctx.services.accounts.setLimits(operator, { accountId: owner.id, limits: unlimited });
  const team = await t.ctx.services.accounts.teams.create(operator, { name: 'Killed team', ownerAccountId: owner.id, features: ['team_data'] });
  await t.ctx.services.accounts.teams.setLimits(operator, { teamId: team.id, limits: unlimited });
  teamId = team.id;
  ({ key } = await t.ctx.services.credentials.keys.create({
    accountId: owner.id,
    teamId: team.id,
    name: 'killed',
    scopes: ['team.notes.write', 'team.follows.write', 'team.positions.write', 'public.read'],
  }));
});
after(async () => {
  await d?.close();
  await t?.ctx.close();
  await db?.drop();
});

interface Write {
  method: 'POST' | 'PUT';
  path: string;
  body: unknown;
}

/** What the clients were told was done. */
const told = { notes: [] as string[], follows: [] as string[], stances: new Map<string, string[]>(), labels: new Map<string, string>() };
const seen = new Map<string, number>();
let acknowledged = 0;

/** Client `c`'s write `i`: a note, a search follow, a stance change on its own bill, or a position label. */
function writeOf(c: number, i: number): { write: Write; record(): void } {
  const stanceBill = records[2 * c]!;
  const positionBill = records[2 * c + 1]!;
  switch (i % 4) {
    case 0: {
      const body = `note ${c}-${i}`;
      return { write: { method: 'POST', path: '/api/v2/team/notes', body: { body } }, record: () => told.notes.push(body) };
    }
    case 1: {
      const query = `query ${c}-${i}`;
      return { write: { method: 'POST', path: '/api/v2/team/follows', body: { type: 'search', refId: query } }, record: () => told.follows.push(query) };
    }
    case 2: {
      // Alternating, so every acknowledged change is a change and appends history.
      const stance = Math.floor(i / 4) % 2 === 0 ? 'supports' : 'opposes';
      return {
        write: { method: 'PUT', path: `/api/v2/team/legislation/${stanceBill}/stance`, body: { stance } },
        record: () => told.stances.set(stanceBill, [...(told.stances.get(stanceBill) ?? []), stance]),
      };
    }
    default: {
      const label = `label ${c}-${i}`;
      return {
        write: { method: 'POST', path: '/api/v2/team/positions', body: { positions: [{ recordId: positionBill, stance: 'supports', label }] } },
        record: () => told.labels.set(positionBill, label),
      };
    }
  }
}

/** Sends one write until it is acknowledged, with the same Idempotency-Key every time. */
async function untilAcknowledged(idempotencyKey: string, write: Write): Promise<void> {
  for (let attempt = 0; attempt < 300; attempt++) {
    const res = await fetch(`${d.front}${write.path}`, {
      method: write.method,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
      body: JSON.stringify(write.body),
    }).catch(() => null);
    const status = res?.status ?? 0;
    const text = (await res?.text()) ?? '';
    seen.set(String(status), (seen.get(String(status)) ?? 0) + 1);
    if (status === 200 || status === 201) return;
    const retryable = status === 0 || status === 502 || status === 503 || status === 504 || (status === 409 && text.includes('idempotency_in_progress'));
    assert.ok(retryable, `${write.method} ${write.path} (${idempotencyKey}): ${status} ${text}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  assert.fail(`${idempotencyKey} was never acknowledged`);
}

test('SIGKILL of one instance under write load: every acknowledged write is stored exactly once', { skip }, async (run) => {
  const total = CLIENTS * WRITES;
  let killed: Promise<void> | null = null;
  const victim = d.instances[1]!;
  const client = async (c: number) => {
    for (let i = 0; i < WRITES; i++) {
      const { write, record } = writeOf(c, i);
      await untilAcknowledged(`killed-${c}-${i}`, write);
      record();
      // A third of the way through, with every client still writing, one instance dies.
      if (++acknowledged === Math.floor(total / 3)) killed = stopProcess(victim.process);
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, (_, c) => client(c)));
  assert.ok(killed, 'the instance was killed while writes were outstanding');
  await killed;
  assert.equal(victim.process.signalCode, 'SIGKILL');

  const q = <R>(query: ReturnType<typeof sql<R>>) => query.execute(t.ctx.db).then((r) => r.rows);
  const notes = await q(sql<{ body: string }>`select body from team_notes where team_id = ${teamId}`);
  assert.deepEqual(notes.map((n) => n.body).sort(), [...told.notes].sort(), 'notes: none lost, none doubled');
  const follows = await q(sql<{ ref_id: string }>`select ref_id from follows where team_id = ${teamId}`);
  assert.deepEqual(follows.map((f) => f.ref_id).sort(), [...told.follows].sort(), 'follows: none lost, none doubled');
  for (const [record, stances] of told.stances) {
    const history = await q(sql<{ stance: string }>`
      select h.stance from team_stance_history h join matters m on m.id = h.matter_id
      where h.team_id = ${teamId} and m.record_number = ${record} order by h.seq`);
    assert.deepEqual(
      history.map((h) => h.stance),
      stances,
      `stance history of ${record} is the changes acknowledged, in order`,
    );
  }
  for (const [record, label] of told.labels) {
    const rows = await q(sql<{ label: string; changes: number }>`
      select p.label, (select count(*)::int from team_stance_history h where h.team_id = p.team_id and h.matter_id = p.matter_id) as changes
      from team_positions p where p.team_id = ${teamId} and p.record_number = ${record}`);
    assert.deepEqual(rows, [{ label, changes: 1 }], `one position on ${record}, its last acknowledged label, one stance change`);
  }
  // One stored answer per acknowledged write.
  const keys = await q(sql<{ n: number }>`select count(*)::int as n from idempotency_keys where owner_id = ${teamId}`);
  assert.equal(keys[0]!.n, total);
  // The balancer itself kept working: every write was acknowledged, through the two that remain.
  assert.ok((seen.get('201') ?? 0) + (seen.get('200') ?? 0) >= total, JSON.stringify([...seen]));
  run.diagnostic(`answers seen: ${JSON.stringify(Object.fromEntries(seen))}`);
});
