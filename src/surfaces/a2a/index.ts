// The A2A agent (A2A v1.0, with the v0.3 method names): its card at /.well-known/agent-card.json
// and /a2a/.well-known/agent-card.json (open, as discovery needs: A2A v1.0 §8.2), and JSON-RPC at
// /a2a through @a2a-js/sdk's DefaultRequestHandler in a native Fastify route. Every call
// authenticates with `Authorization: Bearer` (API keys, OAuth access tokens) through the same
// credential check as the API; without one it is 401 with the RFC 6750/9728 challenge for /a2a
// (A2A v1.0 §7: identity is established by the HTTP layer, never inside the JSON-RPC payload).
// Tasks are kept by the agent-tasks module, scoped by the credential's owner: another owner's task
// is "task not found".
import { DefaultExecutionEventBusManager, DefaultRequestHandler } from '@a2a-js/sdk/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.ts';
import { useJsonParser } from '../http/body-parsers.ts';
import { authenticateRequests } from '../http/guard.ts';
import { useRenderer } from '../http/render.ts';
import { agentCard } from './card.ts';
import { renderA2a } from './errors.ts';
import { answerExecutor } from './executor.ts';
import { AGENT_OPERATION, ownerOf, rpcHandler } from './rpc.ts';

export function a2aSurface(ctx: AppContext) {
  return async function a2a(app: FastifyInstance): Promise<void> {
    const { card, v1, v03 } = agentCard(ctx.config, ctx.performer.get(AGENT_OPERATION).access.scopes);
    const store = ctx.services.agentTasks.store(ownerOf);
    const handler = new DefaultRequestHandler(card, store, answerExecutor(ctx.performer), new DefaultExecutionEventBusManager(ownerOf));

    // A client that announces A2A-Version 1.x gets the v1.0 card; one that announces none (v0.3)
    // the v0.3 card, as the SDK's own card handler decides.
    const sendCard = async (request: FastifyRequest, reply: FastifyReply) => {
      const version = request.headers['a2a-version'];
      const legacy = typeof version !== 'string' || version.trim() === '' || version.trim().startsWith('0.');
      reply.header('Vary', 'A2A-Version').header('Cache-Control', 'public, max-age=300');
      return legacy ? v03 : v1;
    };
    app.get('/.well-known/agent-card.json', sendCard);
    app.get('/a2a/.well-known/agent-card.json', sendCard);

    await app.register(
      async (scope) => {
        // JSON only (A2A v1.0 also names its own media type; its JSON-RPC clients send
        // application/json), read by the same capped parser as every JSON body.
        scope.removeContentTypeParser('text/plain');
        useJsonParser(scope, 'application/a2a+json');
        useRenderer(scope, ctx, renderA2a);
        authenticateRequests(scope, ctx, { name: 'a2a', surface: 'a2a', allowApiKeyHeader: false });
        scope.post('/', rpcHandler(ctx, handler));
      },
      { prefix: '/a2a' },
    );
  };
}
