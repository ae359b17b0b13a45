// Without SMTP_URL mail goes to the log (decisions.md, "Running it"). In production the log holds
// no live link — sign-in, agent approval — only which site each link was for, and start-up says
// plainly that mail is not sent; outside production the developer reads the whole mail there
// (issue 17).
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, test } from 'node:test';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { type AppContext, createContext } from '../../src/context.ts';
import { loadConfig } from '../../src/kernel/config.ts';
import { freshDatabase } from '../helpers/context.ts';

const closers: (() => Promise<void>)[] = [];
after(async () => {
  for (const close of closers.reverse()) await close();
});

/** A context whose log lines are kept, on a fresh database. */
async function contextLogging(nodeEnv: string): Promise<{ ctx: AppContext; lines: string[] }> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const db = await freshDatabase();
  const config = loadConfig({ NODE_ENV: nodeEnv, LOAD_SAMPLE: 'false', BASE_URL: 'https://council.example', ...db.env });
  const ctx = await createContext(config, { log: pino({ level: 'info' }, sink) as unknown as FastifyBaseLogger });
  closers.push(db.drop, () => ctx.close());
  return { ctx, lines };
}

async function sendLinks(ctx: AppContext): Promise<void> {
  await ctx.services.sessions.requestLink('logged@example.org', '198.51.100.9');
  await ctx.services.credentials.registration.start({ email: 'logged@example.org', agent_name: 'Log Agent' }, '198.51.100.9');
}

test('in production without SMTP_URL the log names each mail but withholds its links, and start-up warns', async () => {
  const { ctx, lines } = await contextLogging('production');
  await sendLinks(ctx);
  const mails = lines.filter((l) => l.includes('mail kept in the outbox'));
  assert.equal(mails.length, 2);
  for (const line of mails) {
    assert.match(line, /logged@example\.org/);
    assert.match(line, /a link to https:\/\/council\.example, withheld from the log in production/);
  }
  const all = lines.join('\n');
  for (const secret of [/ctl_[A-Za-z0-9]/, /cta_[A-Za-z0-9]/, /code=/, /signin\/verify/, /agents\/approve/]) assert.doesNotMatch(all, secret);
  assert.ok(
    lines.some((l) => /"level":40/.test(l) && /production without SMTP_URL/.test(l)),
    'a warning at start-up',
  );
});

test('outside production the log holds the whole mail, links included', async () => {
  const { ctx, lines } = await contextLogging('development');
  await sendLinks(ctx);
  const all = lines.filter((l) => l.includes('mail kept in the outbox')).join('\n');
  assert.match(all, /https:\/\/council\.example\/signin\/verify\?code=ctl_/);
  assert.match(all, /https:\/\/council\.example\/agents\/approve\?code=cta_/);
});
