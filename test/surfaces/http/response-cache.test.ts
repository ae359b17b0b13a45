// Kept answers are keyed by representation and URL: the JSON of a URL is never sent for its HTML,
// Markdown or Atom, and each representation keeps its own content type.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import type { CacheChannel } from '../../../src/kernel/coherence.ts';
import { createResponseCache, type Representation } from '../../../src/surfaces/http/response-cache.ts';

test('each representation is kept with its own content type until the public record changes', async () => {
  let generation = 0;
  const channel: CacheChannel = { generation: () => generation, usable: () => true, changeSeq: () => 0, changedAt: () => 0 };
  const cache = createResponseCache(channel);
  const made: string[] = [];
  const app = Fastify();
  const types: Record<Representation, string> = {
    json: 'application/json; charset=utf-8',
    html: 'text/html; charset=utf-8',
    markdown: 'text/markdown; charset=utf-8',
    atom: 'application/atom+xml; charset=utf-8',
    xml: 'application/xml; charset=utf-8',
  };
  for (const representation of Object.keys(types) as Representation[]) {
    app.get(`/${representation}/*`, { onSend: cache.onSend }, async (request, reply) => {
      if (cache.send(request, reply, representation)) return reply;
      cache.begin(request, representation);
      made.push(representation);
      reply.type(types[representation]);
      return `${representation} of ${request.url} — Peña, “Ald.” ✓`;
    });
  }
  await app.ready();
  const get = async (representation: Representation) => app.inject({ url: `/${representation}/matters/O2023-1` });
  for (const representation of Object.keys(types) as Representation[]) {
    const first = await get(representation);
    const again = await get(representation);
    assert.equal(again.body, first.body);
    assert.match(again.body, /— Peña, “Ald\.” ✓$/, 'kept as UTF-8 bytes, sent back the same');
    assert.equal(Number(again.headers['content-length']), Buffer.byteLength(first.body));
    assert.equal(again.headers['content-type'], types[representation]);
  }
  assert.deepEqual(made, ['json', 'html', 'markdown', 'atom', 'xml'], 'each representation was made once, then kept');
  generation++;
  await get('json');
  assert.deepEqual(made.at(-1), 'json', 'a change of the public record drops what was kept');
  await app.close();
});

test('a kept answer of one representation is never sent for another of the same URL', async () => {
  const channel: CacheChannel = { generation: () => 0, usable: () => true, changeSeq: () => 0, changedAt: () => 0 };
  const cache = createResponseCache(channel);
  const app = Fastify();
  let representation: Representation = 'json';
  app.get('/matters/:record', { onSend: cache.onSend }, async (request, reply) => {
    if (cache.send(request, reply, representation)) return reply;
    cache.begin(request, representation);
    reply.type(representation === 'json' ? 'application/json; charset=utf-8' : 'text/markdown; charset=utf-8');
    return representation === 'json' ? '{"recordNumber":"O2023-1"}' : '# O2023-1';
  });
  await app.ready();
  assert.equal((await app.inject({ url: '/matters/O2023-1' })).body, '{"recordNumber":"O2023-1"}');
  representation = 'markdown';
  const md = await app.inject({ url: '/matters/O2023-1' });
  assert.equal(md.body, '# O2023-1');
  assert.match(String(md.headers['content-type']), /^text\/markdown/);
  representation = 'json';
  assert.equal((await app.inject({ url: '/matters/O2023-1' })).body, '{"recordNumber":"O2023-1"}');
  await app.close();
});

test('the memory bound counts each kept answer’s URL and bookkeeping, not only its body', async () => {
  // Distinct URLs with tiny answers (a search that matches nothing): the URL, not the body, is
  // most of what each entry holds, so a bound on bodies alone would keep them without end.
  const maxBytes = 100_000;
  const cache = createResponseCache({ generation: () => 0, usable: () => true, changeSeq: () => 0, changedAt: () => 0 }, maxBytes);
  let made = 0;
  const app = Fastify();
  app.get('/api/v1/matters', { onSend: cache.onSend }, async (request, reply) => {
    if (cache.send(request, reply, 'json')) return reply;
    cache.begin(request, 'json');
    made++;
    reply.type('application/json; charset=utf-8');
    return '{"data":[]}';
  });
  await app.ready();
  const urls = Array.from({ length: 2000 }, (_, i) => `/api/v1/matters?q=${i}${'z'.repeat(200)}`);
  for (const url of urls) await app.inject({ url });
  made = 0;
  // Once the bound is reached a URL asked for once is not let in (kernel/coherence.ts
  // `secondSight`), so the answers kept are the first ones; asked again in the same order, each
  // kept answer is sent before a remade one (now asked for twice) makes room.
  for (const url of urls) await app.inject({ url });
  const kept = urls.length - made;
  assert.ok(kept > 0, 'the answers made while there was room are kept');
  assert.ok(kept * urls[0]!.length <= maxBytes, `${kept} kept answers hold ${kept * urls[0]!.length} characters of URL alone, past the ${maxBytes} bound`);
  await app.close();
});
