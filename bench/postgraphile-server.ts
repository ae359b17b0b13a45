// PostGraphile (v5, from npm: a devDependency) serving the benchmark database's tables, the
// yardstick the GraphQL surface is compared with: its schema is generated from the same tables
// (matters, matter_sponsors, roll_calls, votes, …) and each query compiles to SQL that builds the
// whole answer in PostgreSQL. Needs a PostgreSQL server (DATABASE_URL). Listens on HOST:PORT,
// GraphQL at /graphql; queries are not logged, nothing is exposed but the public schema.
import { createServer } from 'node:http';
import { makePgService } from 'postgraphile/adaptors/pg';
import { grafserv } from 'postgraphile/grafserv/node';
import { PostGraphileAmberPreset } from 'postgraphile/presets/amber';
import { postgraphile } from 'postgraphile';

const connectionString = process.env.DATABASE_URL;
if (!connectionString) throw new Error('DATABASE_URL is required');

const pgl = postgraphile({
  extends: [PostGraphileAmberPreset],
  pgServices: [makePgService({ connectionString, schemas: ['public'], poolConfig: { max: 10 } })],
  grafserv: { graphqlPath: '/graphql', graphiql: false, watch: false },
  grafast: { explain: false },
});
const serv = pgl.createServ(grafserv);
const server = createServer();
serv.addTo(server).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
server.listen(Number(process.env.PORT ?? 5678), process.env.HOST ?? '127.0.0.1');
const stop = async () => {
  server.close();
  await pgl.release();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
