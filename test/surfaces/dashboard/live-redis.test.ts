// Live updates with REDIS_URL set (Redis on 127.0.0.1:6379 unless REDIS_URL names another): team
// events travel by Redis pub/sub, membership removals still by NOTIFY inside their transaction.
import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { accountActor } from '../../helpers/actors.ts';
import { redisLiveBus } from '../../../src/modules/live/index.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { seedPublicData, type Seeded } from '../../helpers/seed.ts';
import { api } from '../v2/team-helpers.ts';
import { dashboardTeam, eventually, openStream } from './helpers.ts';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
let t: TestContext;
let seeded: Seeded;
let port: number;

before(async () => {
  t = await startTestContext({ env: { REDIS_URL: redisUrl } });
  seeded = await seedPublicData(t.ctx.db);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  port = (t.app.server.address() as AddressInfo).port;
});
after(async () => {
  await t.close();
});

test('the bus publishes to every subscriber of the channel, on other connections too', async () => {
  const channel = `council-test:${process.pid}:${Math.random().toString(36).slice(2)}`;
  const a = redisLiveBus(redisUrl, channel);
  const b = redisLiveBus(redisUrl, channel);
  try {
    const got: string[] = [];
    await b.subscribe((p) => got.push(p));
    const event = { teamId: 'team_x', kind: 'note' as const, action: 'created' as const, id: 'note_1', at: new Date().toISOString() };
    await a.publish(event);
    await eventually(() => got.length === 1, 5000, 'the event on the other connection');
    assert.deepEqual(JSON.parse(got[0]!), event);
  } finally {
    await a.close();
    await b.close();
  }
});

describe('a dashboard with REDIS_URL', () => {
  test('team-data publishes to Redis and the stream gets it; a removal still closes it', async () => {
    assert.equal(t.ctx.services.live.bus.kind, 'redis');
    const team = await dashboardTeam(t);
    const s = await openStream(port, `/dashboard/${team.id}/events`, `ct_session=${team.sessions.member}`);
    assert.equal(s.status, 200);
    const res = await api(t)(team.keys.admin, 'PUT', `/team/legislation/${seeded.rollCalls[0]!.recordNumber}/stance`, { stance: 'supports' });
    assert.equal(res.statusCode, 200, res.body);
    await s.waitFor((e) => e.event === 'team' && JSON.parse(e.data).kind === 'stance');
    await t.ctx.services.accounts.members.remove(accountActor(team.owner), { teamId: team.id, accountId: team.member });
    const closed = await s.waitFor((e) => e.event === 'closed');
    assert.equal(JSON.parse(closed.data).reason, 'removed');
    await s.ended;
  });
});

const onServer = Boolean(process.env.DATABASE_URL);
test('two instances with Redis: a write on A reaches a stream on B', { skip: !onServer && 'needs DATABASE_URL' }, async () => {
  const second = await startTestContext({ databaseUrl: t.config.databaseUrl!, env: { REDIS_URL: redisUrl } });
  try {
    await second.app.listen({ port: 0, host: '127.0.0.1' });
    const team = await dashboardTeam(t);
    const s = await openStream((second.app.server.address() as AddressInfo).port, `/dashboard/${team.id}/events`, `ct_session=${team.sessions.owner}`);
    assert.equal(s.status, 200);
    const note = await api(t)(team.keys.admin, 'POST', '/team/notes', { body: 'From instance A' });
    assert.equal(note.statusCode, 201);
    const e = await s.waitFor((x) => x.event === 'team');
    assert.equal(JSON.parse(e.data).id, note.json().id);
  } finally {
    await second.close();
  }
});
