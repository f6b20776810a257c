/**
 * Pricing a 50-line cart with 200 active rules and 20 bundles:
 *   - in process: the pure engine, carts per second (and the same cart with no rules/bundles as
 *     the bare baseline);
 *   - through POST /api/v1/pricing/cart (embedded SQLite, rules and bundles created through the
 *     API) next to a bare Express server in the same child doing the same work: express.json()
 *     body parse, the token hashed and looked up in a process Map, the request counted in the
 *     service's rate-limit store, the engine (`priceCart`) on the very engine input the service
 *     built for this cart (captured once from the running service) and JSON of the same answer
 *     (the service's own mapper, pricedCartView, over the fresh engine result).
 * autocannon runs in this process. Prints req/s, p50, p99, server CPU per request of each side,
 * the ratio to the engine in process, the ratio to the same work and the verdict of issue 29's
 * target (>= 60% of same work, p99 <= 2x).
 *   npm run bench:pricing   (BENCH_DURATION=10 BENCH_CONNECTIONS=10 BENCH_DIST=<repo>/dist)
 */
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { runAs } = require('./run-as');
const { answerCpu } = require('./server-cpu');
const {
  DIST,
  ROUNDS,
  built,
  limiterStoreOf,
  bareAccess,
  listen,
  call,
  measureSides,
  roundRatios,
  warmUp,
  printRow,
  verdict,
  startServer,
  stopServer,
} = require('./same-work');

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
  const { priceCart } = built('libs/pricing/src/domain/pricing-engine');
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
  const { createApiApp } = built('apps/api/src/bootstrap');
  const { loadConfig } = built('libs/platform/src');
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
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}), // the limiter in Redis, as in production
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
  const token = await login('cashier@example.com');
  const same = await sameWorkServer(app, config, `${base}/pricing/cart`, token);
  // An orderly exit on SIGTERM, so a --cpu-prof profile is written.
  process.on('SIGTERM', async () => {
    await app.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  answerCpu();
  process.send({ base, token, same });
}

/** The bench's cart: 50 lines over 31 items, a 5% cart discount. */
const CART = {
  items: Array.from({ length: 50 }, (_, i) => ({ id: 1 + (i % 31), qty: 1 + (i % 6) })),
  cart_discount_type: 'percent',
  cart_discount_value: 5,
};

/**
 * The same work, bare: one cart priced through the service with the engine and the service's
 * result captured (the engine input it built: lines with price books and tax rates, rules,
 * bundles, context), then an Express app that per request parses the body, checks the token and
 * counts it, runs the engine on that input and answers the service's own view of the result.
 */
async function sameWorkServer(app, config, url, token) {
  const express = require('express');
  const engine = built('libs/pricing/src/domain/pricing-engine');
  const priceCart = engine.priceCart;
  const { PricingService, pricedCartView } = built('libs/pricing/src');
  let capture = null;
  engine.priceCart = (input) => {
    if (capture) capture.input = input;
    return priceCart(input);
  };
  const price = PricingService.prototype.price;
  PricingService.prototype.price = async function (...args) {
    const result = await price.apply(this, args);
    if (capture) capture.result = result;
    return result;
  };
  capture = {};
  const answer = await call(url, { method: 'POST', token, body: CART });
  const { input, result } = capture;
  capture = null;
  engine.priceCart = priceCart;
  PricingService.prototype.price = price;
  if (!input) throw new Error('the engine input was not captured: does this build price carts through pricing-engine.priceCart?');
  // Without the service's mapper (an older build), the answer fetched once is sent again.
  const view = result && typeof pricedCartView === 'function' ? (cart) => pricedCartView({ ...result, cart }) : () => answer.data;
  if (JSON.stringify(view(priceCart(input))) !== JSON.stringify(answer.data))
    process.stderr.write("warning: the same-work answer differs from the service's\n");
  const access = bareAccess({ storage: limiterStoreOf(app), tier: 'pos', limit: config.rateLimit.pos, permission: 'pos.access' });
  access.add(token, (await call(url.replace(/\/pricing\/cart$/, '/auth/me'), { token })).data);
  const same = express();
  same.use(express.json({ limit: config.bodyLimit ?? '1mb' }));
  same.post('/pricing/cart', async (req, res) => {
    if (!(await access(req, res))) return;
    if (!Array.isArray(req.body?.items) || req.body.items.length !== input.lines.length) {
      res.status(422).json({ success: false, message: 'The cart is not the bench cart.' });
      return;
    }
    res.json({ success: true, data: view(priceCart(input)) });
  });
  return listen(same);
}

async function main() {
  const inproc = inProcess();
  console.log(`dist ${DIST}`);
  console.log(
    `in process: 50-line cart, 200 rules, 20 bundles: ${inproc.full.toFixed(0)} carts/s | no rules/bundles (bare): ${inproc.bare.toFixed(0)} carts/s | ratio ${((inproc.full / inproc.bare) * 100).toFixed(1)}%`,
  );
  const autocannon = require('autocannon');
  const { child, ready } = startServer(__filename);
  const s = await ready;
  const opts = (url) => ({
    url,
    method: 'POST',
    body: JSON.stringify(CART),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${s.token}` },
    connections: CONNECTIONS,
  });
  const sides = [opts(`http://127.0.0.1:${s.same}/pricing/cart`), opts(`${s.base}/pricing/cart`)];
  try {
    await warmUp(autocannon, sides);
    const measured = await measureSides(autocannon, child, sides);
    const [same, full] = measured.sides;
    const engineUs = 1e6 / inproc.full;
    console.log(`POST /pricing/cart (50 lines, 200 rules, 20 bundles), ${CONNECTIONS} connections, ${DURATION} s each`);
    printRow('POST /pricing/cart', { full, same }, { same: 'bare Express, same work' });
    console.log(
      `  full / engine in process ${((full.rps / inproc.full) * 100).toFixed(1)}% (CPU a cart, engine ${engineUs.toFixed(0)} us / server ${full.cpu.toFixed(0)} us = ${((engineUs * 100) / full.cpu).toFixed(1)}%)`,
    );
    console.log(`  full/same work ${roundRatios(measured.rounds, 1, 0)} (medians of ${ROUNDS} rounds above)`);
    console.log(verdict('pricing/cart', full, same, { min: 0.6, against: 'same work' }));
  } finally {
    await stopServer(child);
  }
}

runAs(serve, main);
