// Kept tool results: by tool and arguments, until the public record changes; a result made while
// it changed is not kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CacheChannel } from '../../../src/kernel/coherence.ts';
import { createKeptResults } from '../../../src/surfaces/mcp/kept-results.ts';

const result = (title: string) => ({ value: { title }, text: JSON.stringify({ title }) });

test('a result is kept by tool and arguments until the public record changes', () => {
  let generation = 0;
  const channel: CacheChannel = { generation: () => generation, usable: () => true };
  const kept = createKeptResults(channel);
  kept.keep('matters_read', { record: 'O2023-1' }, result('A'), kept.mark());
  assert.deepEqual(kept.get('matters_read', { record: 'O2023-1' }), result('A'));
  assert.equal(kept.get('matters_read', { record: 'O2023-2' }), undefined);
  assert.equal(kept.get('bodies_read', { record: 'O2023-1' }), undefined);
  generation++;
  assert.equal(kept.get('matters_read', { record: 'O2023-1' }), undefined, 'a change drops what was kept');
});

test('a result made across a change, or while the channel is unusable, is not kept', () => {
  let generation = 0;
  let usable = true;
  const channel: CacheChannel = { generation: () => generation, usable: () => usable };
  const kept = createKeptResults(channel);
  const mark = kept.mark();
  generation++;
  kept.keep('matters_read', {}, result('stale'), mark);
  assert.equal(kept.get('matters_read', {}), undefined);
  usable = false;
  kept.keep('matters_read', {}, result('A'), kept.mark());
  assert.equal(kept.get('matters_read', {}), undefined);
});
