// Public data: what other modules and the surfaces may call.
import type { ModuleDeps } from '../../context.ts';

export interface PublicData {}

export function createPublicData(_deps: ModuleDeps): PublicData {
  return {};
}
