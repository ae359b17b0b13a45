// Ingestion from the real upstream sources: what the CLI and the server call.
import type { ModuleDeps } from '../../../context.ts';

export interface Ingest {
  loadSampleIfEmpty(onProgress: (line: string) => void): Promise<boolean>;
}

export function createIngest(_deps: ModuleDeps): Ingest {
  return {
    async loadSampleIfEmpty() {
      return false;
    },
  };
}
