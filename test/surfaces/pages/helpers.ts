// The public website over real HTTP on the bundled Chicago sample (the records `npm start` loads),
// with BASE_URL set to the address it listens on, and sample records of every kind to open.
import type { OperationId } from '../../../src/catalogue.ts';
import { visitor } from '../../../src/kernel/actor.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { freePort } from '../../helpers/free-port.ts';

export interface Site {
  t: TestContext;
  base: string;
  get(path: string, headers?: Record<string, string>): Promise<{ status: number; type: string; body: string; headers: Headers }>;
  /** Records of the sample to open: a matter with roll calls, an alderperson who voted, and more. */
  records: {
    matter: string;
    rollCall: string;
    person: string;
    personName: string;
    meeting: string;
    body: string;
    committee: string;
    lobbyist: string;
    client: string;
    employer: string;
  };
  read(id: OperationId, input: unknown): Promise<any>;
  /** GET /api/v1{path} with a public.read key, as an API client sees it. */
  v1(path: string): Promise<{ status: number; body: any }>;
}

export async function startSite(): Promise<Site> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const t = await startTestContext({ env: { BASE_URL: base }, sample: true });
  await t.app.listen({ port, host: '127.0.0.1' });
  const read = async (id: OperationId, input: unknown) =>
    (await t.ctx.performer.perform(visitor, id, input, { call: { surface: 'web' }, count: false })).result as any;
  const rc = (await read('roll-calls.list', { limit: 1 })).data[0];
  const detail = await read('roll-calls.read', { id: rc.id });
  const voter = detail.votes.find((v: any) => v.value === 'Yea') ?? detail.votes[0];
  const committee =
    (await read('money.committees.list', { limit: 1, person: voter.personId })).data[0] ?? (await read('money.committees.list', { limit: 1 })).data[0];
  const lobbyist = (await read('lobbying.lobbyists.list', { limit: 1 })).data[0];
  const body = (await read('bodies.list', { kind: 'committee', limit: 1 })).data[0];
  let key: string | undefined;
  return {
    t,
    base,
    read,
    async v1(path) {
      if (!key) {
        const account = await t.ctx.services.accounts.create({ email: 'site-reader@example.org' });
        key = (await t.ctx.services.credentials.keys.create({ accountId: account.id, name: 'reader', scopes: ['public.read'] })).key;
      }
      const res = await fetch(`${base}/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
      return { status: res.status, body: await res.json() };
    },
    async get(path, headers = {}) {
      const res = await fetch(`${base}${path}`, { headers, redirect: 'manual' });
      return { status: res.status, type: res.headers.get('content-type') ?? '', body: await res.text(), headers: res.headers };
    },
    records: {
      matter: rc.recordNumber,
      rollCall: rc.id,
      person: voter.personId,
      personName: voter.name,
      meeting: (await read('meetings.list', { limit: 1 })).data[0].id,
      body: body.id,
      committee: committee.id,
      lobbyist: lobbyist.id,
      client: (await read('lobbying.clients.list', { limit: 1 })).data[0].id,
      employer: (await read('lobbying.employers.list', { limit: 1 })).data[0].id,
    },
  };
}
