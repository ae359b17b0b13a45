// GET /dashboard/:teamId/events: the team's Server-Sent Events stream (WHATWG HTML §9.2), opened
// by live.js with the session cookie. It carries `team` events (what changed; the page re-fetches
// its region) and a final `closed` event when the viewer loses access. Comment lines keep idle
// proxies from closing it; a closed connection leaves the hub at once.
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { LiveEvent } from '../../modules/live/index.ts';
import { stillTeamViewer, teamViewer } from './viewer.ts';

export const HEARTBEAT_MS = 15_000;

export function eventsRoute(ctx: AppContext, options: { heartbeatMs?: number } = {}) {
  const { hub } = ctx.services.live;
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;

  return async function routes(app: FastifyInstance): Promise<void> {
    app.get('/dashboard/:teamId/events', async (request, reply) => {
      const v = await teamViewer(ctx, request, reply);
      if (!v) return reply;
      const res = reply.raw;
      let open = true;
      const write = (chunk: string) => {
        if (open && !res.writableEnded) res.write(chunk);
      };
      const remove = await hub.add({
        teamId: v.teamId,
        accountId: v.actor.account.id,
        stillAllowed: () => stillTeamViewer(ctx, v.token, v.teamId),
        deliver(event: LiveEvent) {
          const { kind, action, id, at } = event;
          write(`event: team\ndata: ${JSON.stringify({ kind, action, id, at })}\n\n`);
        },
        end(reason) {
          write(`event: closed\ndata: ${JSON.stringify({ reason })}\n\n`);
          open = false;
          res.end();
        },
      });
      // From here on the connection is ours: Fastify neither sends nor times it out.
      reply.hijack();
      request.raw.socket.setTimeout(0);
      res.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        'X-Content-Type-Options': 'nosniff',
        // Proxies that buffer (nginx) would hold events back.
        'X-Accel-Buffering': 'no',
      });
      // The first bytes tell the client the stream is live and subscribed; `retry` paces reconnects.
      res.write('retry: 2000\n: connected\n\n');
      const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
      heartbeat.unref();
      res.on('close', () => {
        open = false;
        clearInterval(heartbeat);
        remove();
      });
      return reply;
    });
  };
}
