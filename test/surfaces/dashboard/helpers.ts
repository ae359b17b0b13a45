// Shared set-up of the dashboard tests: a team with an owner, an admin and a member (made through
// the accounts and credentials services, as the v2 tests do), signed-in browsers for them and for
// an outsider, and a Server-Sent Events client over a real HTTP connection.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { TestContext } from '../../helpers/context.ts';
import { Browser } from '../web/browser.ts';
import { makeTeam, signIn, type Team } from '../v2/team-helpers.ts';

export const allFeatures = ['team_data', 'advocacy', 'analytics', 'people'];

export interface DashboardTeam extends Team {
  sessions: { owner: string; admin: string; member: string; outsider: string };
}

let n = 0;
export async function dashboardTeam(t: TestContext, features = allFeatures): Promise<DashboardTeam> {
  const team = await makeTeam(t, features);
  const { accounts } = t.ctx.services;
  const outsider = await accounts.create({ email: `outsider-${process.pid}-${++n}@example.org`, name: 'Outsider' });
  const session = async (id: string) => signIn(t, (await accounts.get(id)).email);
  return {
    ...team,
    sessions: {
      owner: await session(team.owner),
      admin: await session(team.admin),
      // makeTeam has signed the member in already (one sign-in link per person at a time).
      member: team.keys.member.cookie!.replace(/^ct_session=/, ''),
      outsider: await session(outsider.id),
    },
  };
}

/** A cookie-keeping browser (no JavaScript) already signed in with this session. */
export function browserWith(t: TestContext, session: string): Browser {
  const b = new Browser(t.app);
  b.jar.set('ct_session', session);
  return b;
}

export interface SseEvent {
  event: string;
  data: string;
}

export interface SseStream {
  status: number;
  headers: IncomingMessage['headers'];
  events: SseEvent[];
  comments: string[];
  /** Resolves with the first event (seen or coming) that matches; rejects after `ms`. */
  waitFor(match: (e: SseEvent) => boolean, ms?: number): Promise<SseEvent>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  close(): void;
}

/** Opens `path` as an event stream on a listening app; resolves once the first bytes arrived. */
export function openStream(port: number, path: string, cookie: string): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers: { cookie, accept: 'text/event-stream' } });
    req.on('error', reject);
    req.on('response', (res) => {
      const events: SseEvent[] = [];
      const comments: string[] = [];
      const waiters = new Set<() => void>();
      let buffer = '';
      let endResolve!: () => void;
      const ended = new Promise<void>((r) => {
        endResolve = r;
      });
      let first = true;
      const stream: SseStream = {
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments,
        ended,
        waitFor(match, ms = 5000) {
          return new Promise((ok, fail) => {
            const check = () => {
              const found = events.find(match);
              if (!found) return false;
              clearTimeout(timer);
              waiters.delete(check as () => void);
              ok(found);
              return true;
            };
            const timer = setTimeout(() => {
              waiters.delete(check as () => void);
              fail(new Error(`no matching event within ${ms} ms; got ${JSON.stringify(events)}`));
            }, ms);
            if (!check()) waiters.add(check as () => void);
          });
        },
        close() {
          req.destroy();
        },
      };
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        buffer += chunk;
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          let isEvent = false;
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) {
              data.push(line.slice(5).trim());
              isEvent = true;
            }
          }
          if (isEvent) events.push({ event, data: data.join('\n') });
          cut = buffer.indexOf('\n\n');
        }
        for (const w of [...waiters]) w();
        if (first) {
          first = false;
          resolve(stream);
        }
      });
      res.on('end', endResolve);
      res.on('close', endResolve);
      if (res.statusCode !== 200) {
        res.resume();
        resolve(stream);
      }
    });
    req.end();
  });
}

/** Waits until `condition` holds, checking every 10 ms; fails after `ms`. */
export async function eventually(condition: () => boolean | Promise<boolean>, ms = 5000, what = 'condition'): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`${what} did not hold within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
