// Local admin socket for the operator CLI while the service owns the embedded database.
import type { AppContext } from './context.ts';

export async function startAdminSocket(_ctx: AppContext): Promise<{ close(): Promise<void> }> {
  return { async close() {} };
}
