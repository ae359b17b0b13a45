// Text arrays read in one pass (src/kernel/pg-array.ts) give exactly what pg's own reader gives:
// for arrays the database writes (every character PostgreSQL quotes or escapes, nulls, the empty
// array, nested arrays and explicit bounds), and for any text at all (random strings of the
// characters that matter, which the one-pass reader must hand to pg's reader or read alike).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from '../../src/kernel/db.ts';
import { parseTextArray } from '../../src/kernel/pg-array.ts';
import { freshDatabase } from '../helpers/context.ts';

const TEXT_ARRAY: number = 1009;
const pgReader = pg.types.getTypeParser(TEXT_ARRAY, 'text') as (text: string) => unknown;

const elements = ['plain', 'two words', '', 'NULL', 'null', 'a,b', '{brace}', 'quote "inside"', 'back\\slash', 'tab\there', 'ünïcödé ✓', ' lead', 'trail '];

test('arrays the database writes read as pg reads them, through both backends', async () => {
  const fresh = await freshDatabase({ empty: true });
  const database = await openDatabase<any>({ databaseUrl: fresh.env.DATABASE_URL ?? null, dataDir: fresh.env.DATA_DIR ?? '' });
  try {
    const arrays: (string | null)[][] = [[], [null], ...elements.map((e) => [e]), elements, [...elements, null, 'end'], [null, null]];
    for (const value of arrays) {
      const { rows } = await sql<{
        a: unknown;
        v: unknown;
        text: string;
      }>`select ${value}::text[] as a, ${value}::varchar[] as v, ${value}::text[]::text as text`.execute(database.db);
      assert.deepEqual(rows[0]!.a, value, rows[0]!.text);
      assert.deepEqual(rows[0]!.v, value, rows[0]!.text);
      assert.deepEqual(parseTextArray(rows[0]!.text, pgReader), pgReader(rows[0]!.text), rows[0]!.text);
    }
    // Shapes left to pg's reader: nested, and with explicit bounds.
    const { rows } = await sql<{ nested: unknown; bounded: unknown }>`select '{{a,b},{c,"d e"}}'::text[] as nested, '[0:1]={x,y}'::text[] as bounded`.execute(
      database.db,
    );
    assert.deepEqual(rows[0]!.nested, [
      ['a', 'b'],
      ['c', 'd e'],
    ]);
    assert.deepEqual(rows[0]!.bounded, ['x', 'y']);
  } finally {
    await database.close();
    await fresh.drop();
  }
});

test('any text reads as pg reads it (20,000 random texts of the characters that matter)', () => {
  // A seeded generator: a failure names its text, and the run is the same each time.
  let seed = 20261128;
  const next = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0;
    let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return (r ^ (r >>> 14)) >>> 0;
  };
  const alphabet = ['{', '}', ',', '"', '\\', 'N', 'U', 'L', 'a', ' ', 'é', '[', ']', ':', '=', '1'];
  const pick = () => alphabet[next() % alphabet.length]!;
  const word = () => Array.from({ length: next() % 5 }, pick).join('');
  let simple = 0;
  for (let n = 0; n < 20_000; n++) {
    // Elements as PostgreSQL writes them (quoted with escapes, or bare), then at times one character
    // inserted or taken out anywhere, so malformed texts come too.
    const items = Array.from({ length: next() % 4 }, () => {
      if (next() % 3 === 0) return next() % 5 === 0 ? 'NULL' : word();
      return `"${word().replace(/["\\]/g, (c) => `\\${c}`)}"`;
    });
    let text = `{${items.join(',')}}`;
    if (next() % 3 === 0) {
      const at = next() % (text.length + 1);
      text = next() % 2 === 0 ? text.slice(0, at) + pick() + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
    }
    let fellBack = false;
    const fallback = (t: string) => {
      fellBack = true;
      return pgReader(t);
    };
    let expected: unknown;
    try {
      expected = pgReader(text);
    } catch {
      assert.throws(() => parseTextArray(text, fallback), Error, text);
      continue;
    }
    assert.deepEqual(parseTextArray(text, fallback), expected, text);
    if (!fellBack) simple++;
  }
  // The one-pass reader did read a good share itself (else this test would test pg's reader only).
  assert.ok(simple > 1_000, `${simple} read in one pass`);
});
