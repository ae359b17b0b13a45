// The embedded database's files are private to the service's user: DATA_DIR 0700, every file in
// it 0600 and every directory 0700, on first start and after a start on a directory whose files
// someone opened up meanwhile. (On PostgreSQL the server keeps its own files.)
import assert from 'node:assert/strict';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/kernel/db.ts';

const onPostgres = Boolean(process.env.DATABASE_URL);

/** Opens the embedded database on `dataDir` and closes it again. */
async function openAndClose(dataDir: string): Promise<void> {
  const database = await openDatabase({ databaseUrl: null, dataDir });
  // Kysely starts its PGlite driver on the first query, and closes PGlite only if it started.
  await sql`select 1`.execute(database.db);
  await database.close();
}

/** DATA_DIR itself and every path under it (links not followed). */
function everything(dir: string): string[] {
  return [dir, ...readdirSync(dir, { recursive: true, encoding: 'utf8' }).map((name) => join(dir, name))];
}

/** The paths group or others may read, write or enter, with their modes. */
function openToOthers(dir: string): string[] {
  return everything(dir)
    .map((path) => ({ path, mode: lstatSync(path).mode }))
    .filter(({ mode }) => (mode & 0o077) !== 0)
    .map(({ path, mode }) => `${path.slice(dir.length)} ${(mode & 0o777).toString(8)}`);
}

test('a fresh DATA_DIR and everything the embedded database writes in it are private', { skip: onPostgres && 'embedded only' }, async () => {
  const parent = mkdtempSync(join(tmpdir(), 'council-data-'));
  const dataDir = join(parent, 'data');
  try {
    await openAndClose(dataDir);
    assert.ok(everything(dataDir).length > 100, 'the embedded database wrote its files');
    assert.deepEqual(openToOthers(dataDir), []);
    assert.equal(lstatSync(dataDir).mode & 0o777, 0o700);

    // Opened up while the service was stopped: the next start tightens it again.
    for (const path of everything(dataDir)) chmodSync(path, lstatSync(path).isDirectory() ? 0o777 : 0o666);
    assert.notDeepEqual(openToOthers(dataDir), []);
    await openAndClose(dataDir);
    assert.deepEqual(openToOthers(dataDir), []);
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});
