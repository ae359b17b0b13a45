// A worker made by workerWithOwnHeap (src/kernel/worker-heap.ts) keeps the young generation its
// resourceLimits ask for in a process started as `npm start` starts the service (with
// --max-semi-space-size=32), and the process's own young generation stays as it started.
// Each side keeps many objects alive between scavenges, which is what makes V8 grow a young
// generation to its limit.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

const helper = new URL('../../src/kernel/worker-heap.ts', import.meta.url).href;

// Keeps up to 300,000 small objects alive while making millions, then reports its new space.
const churn = `
  const kept = [];
  for (let i = 0; i < 3e6; i++) { kept.push({ i }); if (kept.length > 300000) kept.length = 0; }
  const newSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576;
`;
const workerSource = `import v8 from 'node:v8'; import { parentPort } from 'node:worker_threads'; ${churn} parentPort.postMessage(newSpace());`;

const program = `
  import v8 from 'node:v8';
  import { workerWithOwnHeap } from ${JSON.stringify(helper)};
  const worker = workerWithOwnHeap(new URL('data:text/javascript,' + encodeURIComponent(${JSON.stringify(workerSource)})), {
    resourceLimits: { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 96 },
  });
  const workerNewSpace = await new Promise((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  ${churn}
  console.log(JSON.stringify({ workerNewSpace, serviceNewSpace: newSpace() }));
`;

test('a worker keeps its own young generation under the service’s --max-semi-space-size, and the service keeps its own', () => {
  const run = spawnSync(process.execPath, ['--max-semi-space-size=32', '--input-type=module', '-e', program], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(run.status, 0, run.stderr);
  const { workerNewSpace, serviceNewSpace } = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as { workerNewSpace: number; serviceNewSpace: number };
  // maxYoungGenerationSizeMb 8: a new space of at most 8 MiB (without the helper V8 gave it 64).
  assert.ok(workerNewSpace <= 8, `the worker's new space grew to ${workerNewSpace} MiB`);
  // The process's semi-spaces of 32 MB: its new space grows past what the worker may have.
  assert.ok(serviceNewSpace > 16, `the process's new space stayed at ${serviceNewSpace} MiB`);
});
