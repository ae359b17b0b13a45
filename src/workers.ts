// What runs on the job queue while the service runs, started once by server.ts (never by the
// CLI): the queue itself, then each module's workers and schedules. Scheduled ingestion is the
// first, then alerts on follows (change detection, email deliveries, digests), then the hourly
// clean-ups: OAuth clients that never got a grant, A2A tasks untouched for a week; then the
// nightly bulk export of the public record.
import type { AppContext } from './context.ts';

export async function startWorkers(ctx: AppContext): Promise<void> {
  await ctx.jobs.start();
  await ctx.services.ingestSchedule.start();
  await ctx.services.webhooks.start();
  await ctx.services.alerts.start();
  await ctx.services.oauth.start();
  await ctx.services.agentTasks.start();
  await ctx.services.bulk.start();
}
