// Kept tool results: by tool and arguments, until the public record changes; a result made while
// it changed is not kept.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CacheChannel } from '../../../src/kernel/coherence.ts';
import { createKeptResults } from '../../../src/surfaces/mcp/kept-results.ts';

const result = (title: string) => ({ json: `{"structuredContent":${JSON.stringify({ title })}` });

test('a result is kept by tool and arguments until the public record changes', () => {
  let generation = 0;
  const channel: CacheChannel = { generation: () => generation, usable: () => true, changeSeq: () => 0, changedAt: () => 0 };
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
  const channel: CacheChannel = { generation: () => generation, usable: () => usable, changeSeq: () => 0, changedAt: () => 0 };
  const kept = createKeptResults(channel);
  const mark = kept.mark();
  generation++;
  kept.keep('matters_read', {}, result('stale'), mark);
  assert.equal(kept.get('matters_read', {}), undefined);
  usable = false;
  kept.keep('matters_read', {}, result('A'), kept.mark());
  assert.equal(kept.get('matters_read', {}), undefined);
});

test('results are bounded by the memory they hold, not only by how many there are', () => {
  // Large results (list pages near the per-result limit): a count alone would let a few thousand
  // of them hold gigabytes. The text is one shared string here; the cache counts it per entry.
  const maxChars = 100_000_000;
  const kept = createKeptResults({ generation: () => 0, usable: () => true, changeSeq: () => 0, changedAt: () => 0 }, maxChars);
  const json = 'x'.repeat(400_000);
  const pages = Array.from({ length: 1000 }, (_, i) => ({ cursor: String(i) }));
  for (const args of pages) kept.keep('matters_list', args, { json }, kept.mark());
  const held = pages.filter((args) => kept.get('matters_list', args) !== undefined).length;
  assert.ok(held > 0, 'the results made while there was room are kept');
  assert.ok(held * json.length <= maxChars, `${held} kept results hold ${held * json.length} characters of JSON alone, past the ${maxChars} bound`);
  // Past a sixteenth of the bound, a result asked for once is not let in (kernel/coherence.ts
  // `secondSight`, ANSWERS_ADMISSION); the same result made again, the second time it is
  // asked for, is, and what was kept stays.
  assert.equal(kept.get('matters_list', pages.at(-1)), undefined, 'the newest, asked for once, was not let in');
  kept.keep('matters_list', pages.at(-1), { json }, kept.mark());
  assert.ok(kept.get('matters_list', pages.at(-1)), 'asked for twice, it is kept');
  assert.ok(kept.get('matters_list', pages[0]), 'the first result is still kept');
});
