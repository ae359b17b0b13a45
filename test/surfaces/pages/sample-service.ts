// The whole service over real HTTP with the bundled Chicago sample loaded, on a copy of a database
// the service's own ingest loaded it into (test/helpers/context.ts; `npm start` loads the same on
// its first start); shared by the tests of the open pages, feeds and guide.
import { freshDatabase } from '../../helpers/context.ts';
import { startService, type TestService } from '../../helpers/service.ts';

export interface SampleService extends TestService {
  get(path: string, headers?: Record<string, string>): Promise<Response>;
}

export async function startSampleService(): Promise<SampleService> {
  const db = await freshDatabase({ sample: true });
  const service = await startService(db.env, { LOAD_SAMPLE: 'true' });
  return {
    ...service,
    get: (path, headers = {}) => fetch(`${service.url}${path}`, { headers, redirect: 'manual' }),
    async close() {
      await service.close();
      await db.drop();
    },
  };
}
