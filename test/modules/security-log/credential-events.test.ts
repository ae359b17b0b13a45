// Credential events for every way a key is issued or revoked today: the account page (a form
// POST), the operator CLI, a team owner revoking a member's team key, and a creator leaving the
// team (revoked inside the removing transaction). Each lands in the owner's security log, newest
// first, and reaches their webhook endpoint signed, once.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parseCommandLine } from '../../../src/cli/commands.ts';
import { execute } from '../../../src/cli/execute.ts';
import { startWorkers } from '../../../src/workers.ts';
import { startTestContext, type TestContext } from '../../helpers/context.ts';
import { mintOAuthTokens } from '../../helpers/oauth.ts';
import { until } from '../../helpers/service.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../helpers/webhook-receiver.ts';
import { signIn } from '../../surfaces/v2/team-helpers.ts';
import { Browser } from '../../surfaces/web/browser.ts';
import { accountActor } from '../../helpers/actors.ts';

let t: TestContext;
let receiver: WebhookReceiver;

before(async () => {
  receiver = await startWebhookReceiver();
  t = await startTestContext({
    env: { OUTBOUND_ALLOW_LOOPBACK: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '1', WEBHOOK_SWEEP_SECONDS: '1', JOBS_STOP_GRACE_SECONDS: '1' },
  });
  await startWorkers(t.ctx);
});
after(async () => {
  await t.close();
  await receiver.close();
});

async function personWithHook(name: string) {
  const account = await t.ctx.services.accounts.create({ email: `${name}-${crypto.randomUUID()}@example.org` });
  const path = `/${name}-${account.id}`;
  const { secret } = await t.ctx.services.webhooks.add(accountActor(account.id), { url: `${receiver.url}${path}` });
  receiver.secrets.set(path, secret);
  return { account, path };
}

const logOf = (accountId: string) => t.ctx.services.securityLog.read(accountActor(accountId));
const summary = (entries: Awaited<ReturnType<typeof logOf>>) => entries.map((e) => [e.type, (e.data as any).via, (e.data as any).credential.name]);

/** Every logged event reached the endpoint exactly once, with a valid signature and the logged data. */
async function allDelivered(path: string, accountId: string) {
  const log = await logOf(accountId);
  await until(
    `${log.length} events delivered to ${path}`,
    async () => (receiver.received.filter((r) => r.path === path).length >= log.length ? true : undefined),
    30,
  );
  const got = receiver.received.filter((r) => r.path === path);
  assert.deepEqual(got.map((r) => r.id).sort(), log.map((e) => e.id).sort());
  for (const r of got) {
    assert.equal(r.verified, true);
    const entry = log.find((e) => e.id === r.id)!;
    assert.deepEqual(JSON.parse(r.body), { type: entry.type, timestamp: JSON.parse(r.body).timestamp, data: entry.data });
  }
}

test('a key made and revoked on the account page: credential.issued then credential.revoked', async () => {
  const { account, path } = await personWithHook('web');
  const browser = new Browser(t.app);
  browser.jar.set('ct_session', await signIn(t, account.email));
  const made = await browser.submit('/account', '/account/keys', { name: 'laptop', owner: 'personal', scopes: ['public.read'] });
  assert.equal(made.status, 201);
  const [key] = await t.ctx.services.credentials.keys.list(accountActor(account.id), { accountId: account.id });
  const revoked = await browser.submit('/account', `/account/keys/${key!.id}/revoke`, {});
  assert.equal(revoked.status, 303);
  // Revoking again changes nothing and emits nothing.
  await t.ctx.services.credentials.keys.revoke(accountActor(account.id), { id: key!.id });
  const log = await logOf(account.id);
  assert.deepEqual(summary(log), [
    ['credential.revoked', 'website', 'laptop'],
    ['credential.issued', 'website', 'laptop'],
  ]);
  assert.equal((log[0]!.data as any).reason, 'revoked by its creator');
  assert.equal((log[1]!.data as any).credential.prefix, key!.prefix);
  assert.doesNotMatch(JSON.stringify(log), /ctk_[A-Za-z0-9]{32}/, 'the key value is never logged');
  const page = await browser.request('GET', '/account/security');
  assert.equal(page.status, 200);
  assert.ok(page.body.indexOf('credential.revoked') < page.body.indexOf('credential.issued'), 'newest first');
  await allDelivered(path, account.id);
});

test('keys made and revoked by the operator CLI are events of the key owner', async () => {
  const { account, path } = await personWithHook('cli');
  const run = async (line: string) => {
    const parsed = parseCommandLine(line.match(/"[^"]*"|\S+/g)!.map((a) => a.replace(/^"|"$/g, '')));
    assert.equal(parsed.kind, 'run');
    return execute(t.ctx, (parsed as { command: any }).command, { progress: () => {} });
  };
  const made = await run(`keys create --email ${account.email} --name "from cli" --scopes "public.read public.ai"`);
  await run(`keys revoke --id ${made.id}`);
  assert.deepEqual(summary(await logOf(account.id)), [
    ['credential.revoked', 'operator', 'from cli'],
    ['credential.issued', 'operator', 'from cli'],
  ]);
  await allDelivered(path, account.id);
});

test("a team owner revoking a member's team key, and a creator leaving the team, are events of the key's creator", async () => {
  const owner = await personWithHook('owner');
  const admin = await personWithHook('admin');
  const { accounts, credentials } = t.ctx.services;
  const teamId = (await accounts.teams.create(accountActor(owner.account.id), { name: `Team ${crypto.randomUUID()}`, ownerAccountId: owner.account.id })).id;
  await accounts.members.add(accountActor(owner.account.id), { teamId, accountId: admin.account.id, role: 'admin' });
  const one = await credentials.keys.create({ accountId: admin.account.id, name: 'team one', scopes: ['public.read'], teamId });
  await credentials.keys.create({ accountId: admin.account.id, name: 'team two', scopes: ['public.read'], teamId });
  await credentials.keys.revoke(accountActor(owner.account.id), { id: one.id });
  await accounts.members.remove(accountActor(owner.account.id), { teamId, accountId: admin.account.id });
  const log = summary(await logOf(admin.account.id));
  assert.deepEqual(log, [
    ['credential.revoked', 'membership_ended', 'team two'],
    ['credential.revoked', 'website', 'team one'],
    ['credential.issued', 'website', 'team two'],
    ['credential.issued', 'website', 'team one'],
  ]);
  assert.equal(((await logOf(admin.account.id))[0]!.data as any).credential.team_id, teamId);
  assert.deepEqual(await logOf(owner.account.id), [], "the owner's own log holds only their own credentials");
  // The events filed inside the removing transaction reach the endpoint through the sweep.
  await allDelivered(admin.path, admin.account.id);
});

test('an OAuth grant issued, refreshed and disconnected is issued, issued and revoked for its person', async () => {
  const person = await personWithHook('oauth');
  const oauth = t.ctx.services.oauth;
  const tokens = await mintOAuthTokens(t.ctx, { accountId: person.account.id, teamId: null, scopes: ['public.read'] });
  await oauth.token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token, client_id: tokens.client_id });
  const [app] = await oauth.connectedApps(accountActor(person.account.id), { accountId: person.account.id });
  await oauth.disconnect(accountActor(person.account.id), app!.id);
  const log = await logOf(person.account.id);
  assert.deepEqual(
    log.map((e) => [e.type, (e.data as any).via, (e.data as any).credential.type, (e.data as any).credential.kind, (e.data as any).credential.name]),
    [
      ['credential.revoked', 'oauth', 'oauth', 'grant', 'Test client'],
      ['credential.issued', 'oauth', 'oauth', 'refresh', 'Test client'],
      ['credential.issued', 'oauth', 'oauth', 'grant', 'Test client'],
    ],
  );
  assert.equal((log[2]!.data as any).credential.prefix, tokens.access_token.slice(0, 8));
  assert.doesNotMatch(JSON.stringify(log), /ct[or]_[A-Za-z0-9]{32}/, 'no token value is logged');
  await allDelivered(person.path, person.account.id);
});
