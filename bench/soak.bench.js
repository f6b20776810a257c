/**
 * Memory soak (issue 12): mixed traffic against the API for SOAK_SECONDS (default 600, ten
 * minutes): barcode / SKU / name lookups on 4/5 of the connections and checkouts of a 5-line
 * cart (a fresh idempotency key each) on the rest, embedded SQLite, the server in a child process and autocannon here.
 * Prints the API process's RSS (VmRSS from /proc) after a warm-up, every minute and at the end,
 * and the growth from the warm-up to the end: the heap must not grow with the traffic.
 *   npm run build && node bench/soak.bench.js     (SOAK_SECONDS=600 SOAK_WARMUP=60 BENCH_CONNECTIONS=10)
 */
const { fork } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const { mkdtempSync, readFileSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { runAs } = require('./run-as');

const SECONDS = Number(process.env.SOAK_SECONDS ?? 600);
const WARMUP = Number(process.env.SOAK_WARMUP ?? 60);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const SKUS = ['BEV-001', 'BEV-003', 'SNK-001', 'GRO-002', 'HSE-001'];

async function serve() {
  require('reflect-metadata');
  const { createApiApp } = require('../dist/apps/api/src/bootstrap');
  const { loadConfig } = require('../dist/libs/platform/src');
  const dir = mkdtempSync(join(tmpdir(), 'pos-soak-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_KEY: 'bench-only-app-key-0123456789abcdefghijkl',
    METRICS_TOKEN: 'bench-only-metrics-token-0123456789', // production refuses a public /metrics without one
    DB_TYPE: 'sqlite',
    DB_SQLITE_PATH: join(dir, 'soak.sqlite'),
    DB_MIGRATE_ON_START: 'true',
    SEED_DEMO_ON_FIRST_START: 'true',
    DEMO_HISTORY_DAYS: '0', // the bare demo set: figures comparable across runs
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    RATE_LIMIT_STANDARD: '1000000',
    RATE_LIMIT_POS: '1000000',
    OPENAPI: 'false',
  });
  process.on('SIGTERM', () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const { DataSource } = require('typeorm');
  const db = app.get(DataSource);
  await db.query('UPDATE stock_levels SET quantity = 100000000');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/v1`;
  const login = await fetch(`${base}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'cashier@example.com', password: 'password' }),
  });
  const token = (await login.json()).data.token;
  const auth = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  await fetch(`${base}/sessions/open`, { method: 'POST', headers: auth, body: JSON.stringify({ store_id: 1, opening_balance: 0 }) });
  const rows = await db.query(`SELECT id, sku FROM items WHERE sku IN (${SKUS.map(() => '?').join(', ')})`, SKUS);
  const codes = (await db.query('SELECT barcode FROM item_barcodes ORDER BY id LIMIT 20')).map((r) => r.barcode);
  const items = rows.map((r) => ({ id: Number(r.id), qty: 1 }));
  const priced = await (await fetch(`${base}/pricing/cart`, { method: 'POST', headers: auth, body: JSON.stringify({ store_id: 1, items }) })).json();
  process.send({ base, token, items, total: priced.data.total, lookups: [...codes, ...SKUS, 'Cola', 'Still', 'Salted'] });
}

const rssMb = (pid) => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

async function main() {
  const autocannon = require('autocannon');
  const child = fork(__filename, ['serve'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const s = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${s.token}` };
  const checkout = () =>
    JSON.stringify({
      store_id: 1,
      idempotency_key: randomUUID(),
      items: s.items,
      payments: [{ payment_method_code: 'card', amount: s.total }],
      total_amount: s.total,
    });
  let n = 0;
  const lookup = (r) => ({ ...r, path: `/api/v1/pos/products/search?q=${encodeURIComponent(s.lookups[n++ % s.lookups.length])}&store_id=1` });
  // Two load generators at once: lookups on 4/5 of the connections, checkouts on the rest.
  const sellers = Math.max(1, Math.round(CONNECTIONS / 5));
  const run = async (seconds) => {
    const origin = new URL(s.base).origin;
    const [a, b] = await Promise.all([
      autocannon({ url: origin, connections: CONNECTIONS - sellers, headers, duration: seconds, requests: [{ setupRequest: lookup }] }),
      autocannon({
        url: `${origin}/api/v1/pos/checkout`,
        method: 'POST',
        connections: sellers,
        headers,
        duration: seconds,
        requests: [{ setupRequest: (r) => ({ ...r, body: checkout() }) }],
      }),
    ]);
    return {
      total: a.requests.total + b.requests.total,
      rps: a.requests.average + b.requests.average,
      p99: Math.max(a.latency.p99, b.latency.p99),
      failed: a.non2xx + a.errors + b.non2xx + b.errors,
    };
  };
  const warm = await run(WARMUP);
  if (warm.failed) throw new Error(`warm-up: ${warm.failed} failed requests`);
  const start = rssMb(child.pid);
  console.log(
    `soak: ${SECONDS} s of mixed traffic (lookups on 4/5 of the connections, 5-line checkouts on the rest), ${CONNECTIONS} connections, embedded SQLite`,
  );
  console.log(`RSS after ${WARMUP} s warm-up: ${start.toFixed(1)} MB`);
  let requests = 0;
  let failures = 0;
  for (let done = 0; done < SECONDS;) {
    const chunk = Math.min(60, SECONDS - done);
    const r = await run(chunk);
    done += chunk;
    requests += r.total;
    failures += r.failed;
    console.log(`  ${String(done).padStart(4)} s  ${r.rps.toFixed(0).padStart(5)} req/s  p99 ${r.p99} ms  RSS ${rssMb(child.pid).toFixed(1)} MB`);
  }
  const end = rssMb(child.pid);
  console.log(
    `RSS start ${start.toFixed(1)} MB, end ${end.toFixed(1)} MB, growth ${(end - start).toFixed(1)} MB (${(((end - start) / start) * 100).toFixed(1)}%) over ${requests} requests, ${failures} failed`,
  );
  child.kill('SIGTERM');
}

runAs(serve, main);
