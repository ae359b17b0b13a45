// Listen and shut down gracefully; everything else is built by context.ts and app.ts.
import { buildApp } from './app.ts';
import { type AppContext, createContext } from './context.ts';
import type { Config } from './kernel/config.ts';
import { startAdminSocket } from './admin-socket.ts';
import { inBackground } from './kernel/db-budget.ts';
import { lockIds, withStartupLock } from './kernel/locks.ts';
import { startWorkers } from './workers.ts';
import { reportMemoryOnSignal } from './kernel/memory-report.ts';
import { responseCacheFor } from './surfaces/http/response-cache.ts';

export async function startServer(config: Config): Promise<{ close(): Promise<void>; url: string; ctx: AppContext }> {
  const ctx = await createContext(config);
  // With the embedded database only this process may open the data directory, so the operator
  // CLI reaches the running service through a socket only this machine's user can open. It opens
  // first, before the sample load, so a CLI started meanwhile finds it instead of the directory.
  const admin =
    ctx.database.kind === 'pglite'
      ? await startAdminSocket(ctx).catch(async (err) => {
          await ctx.close();
          throw err;
        })
      : null;
  const app = await buildApp(ctx);
  // The job queue and its workers (scheduled ingestion); ctx.close() stops them gracefully.
  await startWorkers(ctx).catch(async (err) => {
    await admin?.close();
    await ctx.close();
    throw err;
  });
  const url = await app.listen({ port: config.port, host: config.host });
  // SIGUSR2: where the memory goes (kernel/memory-report.ts), the kept answers included.
  const stopMemoryReport = reportMemoryOnSignal(ctx.log, () => ({
    keptAnswersBytes: responseCacheFor(ctx.caches.publicData).bytes(),
    keptSearchesBytes: ctx.services.publicData.keptSearchBytes(),
  }));
  ctx.log.info({ url, database: ctx.database.kind }, 'Council Tracker is serving');
  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      // Drain: `/ready` answers 503 first, so a balancer stops sending before the listener closes;
      // app.close() then refuses new connections and lets requests in flight finish, and
      // ctx.close() gives running jobs their grace period (JOBS_STOP_GRACE_SECONDS).
      ctx.lifecycle.draining = true;
      if (config.drainSeconds > 0) await new Promise((resolve) => setTimeout(resolve, config.drainSeconds * 1000));
      stopMemoryReport();
      await admin?.close();
      await app.close();
      await ctx.close();
    })());
  if (config.loadSample) {
    // The site answers while the sample loads (its first page within seconds of a fresh start;
    // the sources' freshness says the sample is loading): pages fill in as records arrive, since
    // every kept answer is dropped when the public record changes (kernel/coherence.ts). This
    // returns once it is loaded. Two instances starting at once on one database: the second
    // waits, then finds data.
    try {
      // Background work: no request's time budget applies to it.
      const loaded = await inBackground(() =>
        withStartupLock(ctx.database, lockIds.sampleLoad, () => ctx.services.ingest.loadSampleIfEmpty((line) => ctx.log.info(line))),
      );
      if (loaded) {
        ctx.log.info('loaded the bundled Chicago sample');
        // The whole record in bulk from the first start, not only after the first nightly run.
        await ctx.services.bulk.queue('sample loaded');
      }
    } catch (err) {
      await close();
      throw err;
    }
  }
  // Ready for a load balancer once the bundled sample (if any) is in: pages answer meanwhile,
  // but an instance joining a deployment should not serve a half-loaded record.
  ctx.lifecycle.serving = true;
  return { close, url, ctx };
}
