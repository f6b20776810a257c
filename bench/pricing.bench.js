/**
 * Pricing a 50-line cart with 200 active rules and 20 bundles:
 *   - in process: the pure engine, carts per second (and the same cart with no rules/bundles as
 *     the bare baseline);
 *   - through POST /api/v1/pricing/cart (embedded SQLite, rules and bundles created through the
 *     API): requests/s, p50, p99 with autocannon from this process, the server in a child.
 *   npm run bench:pricing   (BENCH_DURATION=10 BENCH_CONNECTIONS=10)
 */
const { fork } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { runAs } = require('./run-as');
const { answerCpu, cpuOf, cpuPerRequest } = require('./server-cpu');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const kinds = ['percent_off', 'amount_off', 'fixed_price', 'quantity_tiers', 'buy_x_get_y'];

function engineRules(n) {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `r${i}`,
    kind: kinds[i % 5],
    priority: i % 7,
    exclusive: i % 50 === 0,
    active: true,
    conditions: { itemIds: [1 + (i % 32)], minQuantity: 1 + (i % 3) },
    value: kinds[i % 5] === 'percent_off' ? 500 + (i % 10) * 100 : 20 + i,
    tiers: [
      { minQuantity: 2, percentOffBp: 500 },
      { minQuantity: 5, percentOffBp: 1000 },
    ],
    buyQuantity: 2,
    getQuantity: 1,
  }));
}
function engineBundles(n) {
  return Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `b${i}`,
    price: 500 + i * 10,
    active: true,
    components: [
      { itemId: 1 + (i % 32), quantity: 1 },
      { itemId: 1 + ((i + 5) % 32), quantity: 2 },
    ],
  }));
}

function inProcess() {
  const { priceCart } = require('../dist/libs/pricing/src/domain/pricing-engine');
  const lines = Array.from({ length: 50 }, (_, i) => ({
    key: String(i),
    itemId: 1 + (i % 32),
    categoryId: 1 + (i % 6),
    quantity: 1 + (i % 6),
    basePrice: 100 + i * 37,
    priceBooks: [{ priceBookId: 1, name: 'b', priority: 1, price: 90 + i * 37, minQuantity: 3 }],
    taxRateBp: [0, 200, 825][i % 3],
  }));
  const context = { storeId: 1, customerGroupId: 2, at: new Date(), timeZone: 'America/New_York', pricesIncludeTax: false, taxExempt: false };
  const full = { context, lines, rules: engineRules(200), bundles: engineBundles(20), cartDiscount: { type: 'percent', valueBp: 500 } };
  const bare = { context, lines, rules: [], bundles: [] };
  const run = (input) => {
    for (let i = 0; i < 200; i++) priceCart(input);
    const until = Date.now() + DURATION * 300;
    let n = 0;
    while (Date.now() < until) {
      priceCart(input);
      n++;
    }
    return n / ((DURATION * 300) / 1000);
  };
  return { full: run(full), bare: run(bare) };
}

async function serve() {
  require('reflect-metadata');
  const { createApiApp } = require('../dist/apps/api/src/bootstrap');
  const { loadConfig } = require('../dist/libs/platform/src');
  const dir = mkdtempSync(join(tmpdir(), 'pos-bench-pricing-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_KEY: 'bench-only-app-key-0123456789abcdefghijkl',
    METRICS_TOKEN: 'bench-only-metrics-token-0123456789', // production refuses a public /metrics without one
    DB_TYPE: 'sqlite',
    DB_SQLITE_PATH: join(dir, 'bench.sqlite'),
    DB_MIGRATE_ON_START: 'true',
    SEED_DEMO_ON_FIRST_START: 'true',
    DEMO_HISTORY_DAYS: '0', // the bare demo set: figures comparable across runs
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    RATE_LIMIT_STANDARD: '1000000',
    RATE_LIMIT_POS: '1000000',
    RATE_LIMIT_LOGIN: '1000',
    OPENAPI: 'false',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/v1`;
  const login = async (email) =>
    (
      await (
        await fetch(`${base}/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: 'password' }),
        })
      ).json()
    ).data.token;
  const manager = await login('manager@example.com');
  const post = (path, body) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${manager}` },
      body: JSON.stringify(body),
    }).then(async (r) => {
      if (r.status >= 300) throw new Error(`${path} ${r.status} ${await r.text()}`);
    });
  for (let i = 0; i < 200; i++) {
    const kind = kinds[i % 5];
    await post('/pricing-rules', {
      name: `rule ${i}`,
      kind,
      priority: i % 7,
      is_exclusive: i % 50 === 0,
      item_ids: [1 + (i % 31)],
      min_quantity: 1 + (i % 3),
      percent_off: kind === 'percent_off' ? 5 + (i % 10) : undefined,
      amount_off: kind === 'amount_off' ? 0.2 : undefined,
      fixed_price: kind === 'fixed_price' ? 1 : undefined,
      tiers:
        kind === 'quantity_tiers'
          ? [
              { min_quantity: 2, percent_off: 5 },
              { min_quantity: 5, percent_off: 10 },
            ]
          : undefined,
      buy_quantity: kind === 'buy_x_get_y' ? 2 : undefined,
      get_quantity: kind === 'buy_x_get_y' ? 1 : undefined,
    });
  }
  for (let i = 0; i < 20; i++)
    await post('/bundles', {
      name: `bundle ${i}`,
      code: `B${i}`,
      price: 5 + i,
      items: [
        { item_id: 1 + (i % 31), quantity: 1 },
        { item_id: 1 + ((i + 5) % 31), quantity: 2 },
      ],
    });
  process.send({ base, token: await login('cashier@example.com') });
  answerCpu();
  process.on('message', async (m) => {
    if (m !== 'stop') return;
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
}

async function main() {
  const inproc = inProcess();
  console.log(
    `in process: 50-line cart, 200 rules, 20 bundles: ${inproc.full.toFixed(0)} carts/s | no rules/bundles (bare): ${inproc.bare.toFixed(0)} carts/s | ratio ${((inproc.full / inproc.bare) * 100).toFixed(1)}%`,
  );
  const autocannon = require('autocannon');
  const child = fork(__filename, ['serve'], {
    execArgv: process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : process.execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const { base, token } = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const body = JSON.stringify({
    items: Array.from({ length: 50 }, (_, i) => ({ id: 1 + (i % 31), qty: 1 + (i % 6) })),
    cart_discount_type: 'percent',
    cart_discount_value: 5,
  });
  const opts = {
    url: `${base}/pricing/cart`,
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    connections: CONNECTIONS,
  };
  await autocannon({ ...opts, duration: 2 });
  const before = await cpuOf(child);
  const r = await autocannon({ ...opts, duration: DURATION });
  const cpu = cpuPerRequest(before, await cpuOf(child), r.requests.total);
  if (r.non2xx || r.errors) throw new Error(`${r.non2xx} non-2xx, ${r.errors} errors`);
  console.log(
    `POST /pricing/cart (50 lines, 200 rules, 20 bundles, ${CONNECTIONS} connections, ${DURATION} s): ${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms, server CPU ${(cpu / 1000).toFixed(2)} ms/request`,
  );
  const engineMs = 1000 / inproc.full;
  console.log(
    `ratio HTTP / engine in process: ${((r.requests.average / inproc.full) * 100).toFixed(1)}% (CPU a cart, engine / server: ${engineMs.toFixed(2)} / ${(cpu / 1000).toFixed(2)} ms = ${((engineMs * 1000 * 100) / cpu).toFixed(1)}%)`,
  );
  child.send('stop');
}

runAs(serve, main);
