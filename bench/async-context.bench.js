/**
 * What each AsyncLocalStorage of a process costs every await (issue 29, round 10). Node 20 runs
 * the propagation of every enabled storage for every promise created, whether or not the work
 * reads it. Two ways to carry the platform's four contexts (request facts, commit scope, read
 * scope, held moment), each in a child process of its own, alternated in rounds:
 *   - facets: the platform's AsyncFacet, four keys of nestjs-cls's store (one storage);
 *   - storages: nestjs-cls's storage plus one AsyncLocalStorage per context (five), as before.
 * A "request" enters the four contexts and then awaits 30 times (a small route's chain); the bare
 * baseline is the same request with no context at all. Prints us per request (medians) and ratios.
 *   npm run build && node bench/async-context.bench.js   (BENCH_DIST=<repo>/dist, BENCH_ROUNDS=5, BENCH_CALLS=20000)
 */
const { fork } = require('node:child_process');
const { join } = require('node:path');
const { DIST } = require('./same-work');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CALLS = Number(process.env.BENCH_CALLS ?? 20000);
const AWAITS = 30;

async function child(mode) {
  let enter = (work) => work();
  if (mode === 'facets') {
    const { AsyncFacet } = require(join(DIST, 'libs/platform/src/context/async-facet'));
    const facets = ['request', 'commit', 'read', 'moment'].map((name) => new AsyncFacet(name));
    enter = (work, k = 0) => (k === facets.length ? work() : facets[k].run({ k }, () => enter(work, k + 1)));
  } else if (mode === 'storages') {
    require(require.resolve('nestjs-cls', { paths: [DIST] })); // its storage, enabled when loaded
    const { AsyncLocalStorage } = require('node:async_hooks');
    const storages = Array.from({ length: 4 }, () => new AsyncLocalStorage());
    enter = (work, k = 0) => (k === storages.length ? work() : storages[k].run({ k }, () => enter(work, k + 1)));
  }
  const step = async (i) => {
    await null;
    return i;
  };
  const work = async () => {
    let sum = 0;
    for (let i = 0; i < AWAITS; i++) sum += await step(i);
    return sum;
  };
  for (let i = 0; i < 2000; i++) await enter(work); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await enter(work);
  process.send(Number(process.hrtime.bigint() - started) / 1000 / CALLS);
}

function measure(mode) {
  return new Promise((resolve, reject) => {
    const c = fork(__filename, ['child', mode]);
    c.once('message', (us) => {
      c.kill();
      resolve(us);
    });
    c.once('error', reject);
  });
}

async function main() {
  const modes = ['bare', 'facets', 'storages'];
  const runs = Object.fromEntries(modes.map((m) => [m, []]));
  for (let r = 0; r < ROUNDS; r++) {
    const order = modes.slice(r % modes.length).concat(modes.slice(0, r % modes.length));
    for (const m of order) runs[m].push(await measure(m));
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const med = Object.fromEntries(modes.map((m) => [m, median(runs[m])]));
  console.log(`a request entering 4 contexts, then ${AWAITS} awaits; ${CALLS} requests a run, medians of ${ROUNDS} rounds, dist ${DIST}`);
  for (const m of modes) console.log(`  ${m.padEnd(9)} ${med[m].toFixed(2).padStart(7)} us   rounds: ${runs[m].map((v) => v.toFixed(2)).join(', ')}`);
  console.log(
    `  storages/facets ${(med.storages / med.facets).toFixed(2)}x; over bare: facets +${(med.facets - med.bare).toFixed(2)} us, storages +${(med.storages - med.bare).toFixed(2)} us`,
  );
}

if (process.argv[2] === 'child') child(process.argv[3]);
else main();
