// The ceiling: a bare Fastify app with one small JSON route and nothing else, in its own process.
// What the service's routes reach is reported as a share of what this one does on the same machine.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/ceiling', async () => ({ status: 'ok', service: 'council-tracker-bench' }));
await app.listen({ port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void app.close().then(() => process.exit(0)));
