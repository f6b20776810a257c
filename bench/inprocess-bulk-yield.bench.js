/**
 * A till during a bulk price job on the embedded default (SQLite, in-process queue, the job
 * running in the API process): the server in a child, with the demo data; from this process a
 * POST /prices/bulk of BENCH_CHANGES (default 9,900: 30 base prices, then price-book entries),
 * then until the job ends:
 *   - one till scanning a barcode (GET /pos/products/search) back to back,
 *   - a back office reading the job's progress (GET /prices/bulk/{id}) every 250 ms.
 * Prints the job's duration, the scan and progress-read latencies while it ran (p50, p95, max)
 * and how many progress reads saw it running with processed moving; then the same scan at rest.
 *   npm run build && node bench/inprocess-bulk-yield.bench.js   (BENCH_CHANGES=9900)
 */
const { fork } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { runAs } = require('./run-as');

const CHANGES = Number(process.env.BENCH_CHANGES ?? 9900);
const BARCODE = '4006381333907'; // the demo's first item

async function serve() {
  require('reflect-metadata');
  const { createApiApp } = require('../dist/apps/api/src/bootstrap');
  const { loadConfig } = require('../dist/libs/platform/src');
  const dir = mkdtempSync(join(tmpdir(), 'pos-bench-bulk-yield-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_KEY: 'bench-only-app-key-0123456789abcdefghijkl',
    METRICS_TOKEN: 'bench-only-metrics-token-0123456789',
    DB_TYPE: 'sqlite',
    DB_SQLITE_PATH: join(dir, 'bench.sqlite'),
    DB_MIGRATE_ON_START: 'true',
    SEED_DEMO_ON_FIRST_START: 'true',
    DEMO_HISTORY_DAYS: '0', // the bare demo set: figures comparable across runs
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    RATE_LIMIT_STANDARD: '1000000',
    RATE_LIMIT_POS: '1000000',
    RATE_LIMIT_BULK: '1000',
    RATE_LIMIT_LOGIN: '1000',
    OPENAPI: 'false',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  process.send({ base: `http://127.0.0.1:${app.getHttpServer().address().port}/api/v1` });
  process.on('disconnect', () => process.exit(1)); // the driver died: do not linger
  process.on('message', async (m) => {
    if (m !== 'stop') return;
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

const pct = (sorted, p) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] : NaN);
const figures = (ms) => {
  const s = [...ms].sort((a, b) => a - b);
  return `n ${s.length}, p50 ${pct(s, 50).toFixed(1)} ms, p95 ${pct(s, 95).toFixed(1)} ms, max ${(s[s.length - 1] ?? NaN).toFixed(1)} ms`;
};

async function main() {
  const child = fork(__filename, ['serve'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const { base } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  // A client retries a request whose connection was reset (a keep-alive socket the frozen server
  // closed as it woke up): the latency is until the answer, resets are counted.
  let resets = 0;
  const send = async (path, token, init) => {
    for (let attempt = 1; ; attempt++) {
      try {
        return await fetch(`${base}${path}`, {
          ...init,
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        });
      } catch (error) {
        if (attempt >= 5 || error.cause?.code !== 'ECONNRESET') throw error;
        resets++;
      }
    }
  };
  const call = async (path, token, init = {}) => {
    const started = performance.now();
    const res = await send(path, token, init);
    const body = await res.json();
    if (res.status >= 300) throw new Error(`${path} ${res.status} ${JSON.stringify(body).slice(0, 500)}`);
    return { body, ms: performance.now() - started };
  };
  const login = async (email) => (await call('/auth/login', null, { method: 'POST', body: JSON.stringify({ email, password: 'password' }) })).body.data.token;
  const manager = await login('manager@example.com');
  const cashier = await login('cashier@example.com');
  const scan = () => call(`/pos/products/search?q=${BARCODE}&store_id=1`, cashier);

  const items = Array.from({ length: 30 }, (_, i) => 1 + i);
  const tiers = Math.ceil((CHANGES - items.length) / (2 * items.length));
  const entries = [1, 2]
    .flatMap((book) => items.flatMap((item) => Array.from({ length: tiers }, (_, k) => ({ item_id: item, price_book_id: book, min_quantity: 2 + k }))))
    .slice(0, CHANGES - items.length)
    .map((e, i) => ({ ...e, price: (100 + (i % 90)) / 100 }));
  const changes = [...items.map((id, i) => ({ item_id: id, price: (500 + i) / 100 })), ...entries];

  for (let i = 0; i < 20; i++) await scan(); // warm
  const submitted = await call('/prices/bulk', manager, { method: 'POST', body: JSON.stringify({ changes }) });
  const jobId = submitted.body.data.job_id;
  const started = performance.now();
  let ended = false;
  const scans = [];
  const reads = [];
  const seen = [];
  const till = (async () => {
    while (!ended) scans.push((await scan()).ms); // every scan sent before the job was seen ended
  })();
  let finishedAfterMs = NaN;
  while (!ended) {
    const r = await call(`/prices/bulk/${jobId}`, manager);
    reads.push(r.ms);
    seen.push({ status: r.body.data.status, processed: r.body.data.processed });
    if (r.body.data.status === 'completed' || r.body.data.status === 'failed') {
      ended = true;
      finishedAfterMs = performance.now() - started;
      break;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await till;
  const final = seen[seen.length - 1];
  const moving = seen.filter((s) => s.status === 'running' && s.processed > 0 && s.processed < changes.length);
  console.log(
    `bulk price job of ${changes.length} changes, embedded default (SQLite, in-process queue): ${final.status} after ${(finishedAfterMs / 1000).toFixed(1)} s`,
  );
  console.log(`  scan (GET /pos/products/search, one till back to back) while it ran: ${figures(scans)}`);
  console.log(`  progress read (GET /prices/bulk/{id}, every 250 ms) while it ran: ${figures(reads)}`);
  console.log(
    `  progress reads showing the job running with 0 < processed < total: ${moving.length} of ${seen.length} (distinct processed values: ${new Set(moving.map((s) => s.processed)).size})`,
  );
  console.log(`  connections reset by the server and retried (scans and reads): ${resets}`);
  const rest = [];
  for (let i = 0; i < 200; i++) rest.push((await scan()).ms);
  console.log(`  scan at rest (no job): ${figures(rest)}`);
  child.send('stop');
}

runAs(serve, main);
