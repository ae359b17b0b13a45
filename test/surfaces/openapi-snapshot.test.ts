// The v1 and v2 OpenAPI documents as served, against the committed copies in
// test/fixtures/openapi/: a change to either description shows up in review as a change of the
// fixture (regenerate with UPDATE_OPENAPI=1 and read the diff before committing it).
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { startTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
before(async () => {
  t = await startTestContext();
});
after(async () => {
  await t.close();
});

for (const [name, url] of [
  ['v1', '/api/openapi.json'],
  ['v2', '/api/v2/openapi.json'],
] as const) {
  test(`the ${name} description is the committed one`, async () => {
    const fixture = new URL(`../fixtures/openapi/${name}.json`, import.meta.url);
    const served = (await t.app.inject({ url })).json();
    if (process.env.UPDATE_OPENAPI === '1') writeFileSync(fixture, `${JSON.stringify(served, null, 2)}\n`);
    assert.deepEqual(served, JSON.parse(readFileSync(fixture, 'utf8')));
  });
}
