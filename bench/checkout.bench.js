/**
 * POST /api/v1/pos/checkout of a 5-line cart on MySQL/MariaDB (unique idempotency key per
 * request, cash) next to two bare servers in the same child:
 *   - bare transaction (node:http + mysql2): the same writes in one transaction (receipt counter,
 *     sale, 5 lines, payment, 5 conditional stock updates with their ledger rows, invoice, outbox
 *     event, idempotency row), nothing else;
 *   - same work (Express): express.json() parse of the same body, the token hashed as the service
 *     does and looked up in a process Map, the request counted in the service's rate-limit store,
 *     the same transaction storing the answer in its idempotency row, and the answer the service
 *     gave for one real sale (its id replaced).
 * Server in a child, autocannon here. Prints req/s, p50, p99, server CPU per sale of each side,
 * both ratios and the verdict of issue 29's target (>= 60% of the bare transaction, p99 <= 2x,
 * CPU per sale <= 2x bare).
 *   npm run bench:checkout   (BENCH_DURATION=10 BENCH_CONNECTIONS=10 BENCH_DIST=<repo>/dist; DB_HOST/DB_USERNAME/...)
 */
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { runAs } = require('./run-as');
const { answerCpu } = require('./server-cpu');
const {
  DIST,
  DURATION,
  built,
  limiterStoreOf,
  bareAccess,
  listen,
  call,
  measureSides,
  roundRatios,
  ROUNDS,
  warmUp,
  printRow,
  verdict,
  startServer,
  stopServer,
} = require('./same-work');

const DB = process.env.BENCH_DB ?? 'pos_bench_checkout';
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const server = {
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 3306),
  user: process.env.DB_USERNAME ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
};
const SKUS = ['BEV-001', 'BEV-003', 'SNK-001', 'GRO-002', 'HSE-001'];

async function prepare() {
  const mysql = require('mysql2/promise');
  const root = await mysql.createConnection(server);
  await root.query(`DROP DATABASE IF EXISTS \`${DB}\``);
  await root.query(`CREATE DATABASE \`${DB}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await root.end();
  const env = {
    ...process.env,
    NODE_ENV: 'development',
    DEMO_HISTORY_DAYS: '0', // the bare demo set: figures comparable across runs
    DB_TYPE: 'mysql',
    DB_HOST: server.host,
    DB_PORT: String(server.port),
    DB_USERNAME: server.user,
    DB_PASSWORD: server.password,
    DB_DATABASE: DB,
  };
  const { execFileSync } = require('node:child_process');
  execFileSync('node', [join(DIST, 'apps/cli/src/main.js'), 'migrate'], { env, stdio: 'ignore' });
  execFileSync('node', [join(DIST, 'apps/cli/src/main.js'), 'seed:demo'], { env, stdio: 'ignore' });
  const db = await mysql.createConnection({ ...server, database: DB });
  await db.query('UPDATE stock_levels SET quantity = 100000000');
  await db.end();
}

/**
 * The writes of one sale in one transaction (the bare side's and the same-work side's), the
 * answer (answerOf(sale id)) stored in the idempotency row; resolves to that answer.
 */
async function saleTransaction(pool, items, answerOf) {
  const conn = await pool.getConnection();
  try {
    await conn.beginTransaction();
    const now = new Date();
    await conn.query('INSERT INTO receipt_counters (store_id, last_number) VALUES (2, 0) ON DUPLICATE KEY UPDATE last_number = last_number + 1');
    const [[{ last_number: n }]] = await conn.query('SELECT last_number FROM receipt_counters WHERE store_id = 2');
    const total = items.reduce((a, i) => a + Number(i.base_price), 0);
    const [sale] = await conn.query(
      'INSERT INTO sales (store_id, warehouse_id, user_id, receipt_number, status, subtotal, discount_total, tax_total, total_amount, paid_amount, change_amount, balance_due, currency_code, idempotency_key, tax_exempt, created_at, updated_at) VALUES (2, 2, 3, ?, "completed", ?, 0, 0, ?, ?, 0, 0, "USD", ?, 0, ?, ?)',
      [`BARE-${n}`, total, total, total, randomUUID(), now, now],
    );
    await conn.query(
      'INSERT INTO sale_items (sale_id, line_no, item_id, sku, name, factor, quantity, base_quantity, base_price, unit_price, unit_cost, price_source, gross, rule_discount, bundle_discount, manual_discount, cart_discount, net, tax_rate_bp, tax, total, warehouse_id, returned_quantity) VALUES ?',
      [
        items.map((i, k) => [
          sale.insertId,
          k,
          i.id,
          i.sku,
          i.name,
          1,
          1,
          1,
          i.base_price,
          i.base_price,
          i.cost,
          'base',
          i.base_price,
          0,
          0,
          0,
          0,
          i.base_price,
          0,
          0,
          i.base_price,
          2,
          0,
        ]),
      ],
    );
    await conn.query(
      'INSERT INTO sale_payments (sale_id, payment_method_id, method_code, method_type, amount, change_amount, created_at) VALUES (?, 1, "cash", "cash", ?, 0, ?)',
      [sale.insertId, total, now],
    );
    for (const i of [...items].sort((a, b) => a.id - b.id)) {
      const [u] = await conn.query(
        'UPDATE stock_levels SET quantity = quantity - 1, updated_at = ? WHERE item_id = ? AND warehouse_id = 2 AND quantity - 1 >= 0',
        [now, i.id],
      );
      if (!u.affectedRows) throw new Error('stock');
      const [[{ quantity }]] = await conn.query('SELECT quantity FROM stock_levels WHERE item_id = ? AND warehouse_id = 2', [i.id]);
      await conn.query(
        'INSERT INTO stock_movements (item_id, warehouse_id, type, quantity, balance_after, unit_cost, reference_type, reference_id, user_id, created_at) VALUES (?, 2, "sale", -1, ?, ?, "sale", ?, 3, ?)',
        [i.id, quantity, i.cost, String(sale.insertId), now],
      );
    }
    await conn.query(
      'INSERT INTO invoices (sale_id, store_id, number, status, issued_at, due_at, amount, paid, balance, created_at, updated_at) VALUES (?, 2, ?, "paid", ?, ?, ?, ?, 0, ?, ?)',
      [sale.insertId, `INV-BARE-${n}`, now, now, total, total, now, now],
    );
    await conn.query('INSERT INTO outbox_events (type, store_id, payload, created_at) VALUES ("sale.completed", 2, ?, ?)', [
      JSON.stringify({ sale_id: sale.insertId }),
      now,
    ]);
    const answer = answerOf(sale.insertId);
    await conn.query(
      'INSERT INTO idempotency_keys (idem_key, scope, fingerprint, status, response_status, response_body, user_id, created_at) VALUES (?, "checkout", "x", "completed", 201, ?, 3, ?)',
      [randomUUID(), answer, now],
    );
    await conn.commit();
    return answer;
  } catch (e) {
    await conn.rollback();
    throw e;
  } finally {
    conn.release();
  }
}

/** The bare transaction (node:http) and the same work (Express), on one mysql2 pool; resolves to their ports. */
async function bareServers(access, serviceAnswer) {
  const mysql = require('mysql2/promise');
  const express = require('express');
  const pool = mysql.createPool({ ...server, database: DB, connectionLimit: 20 });
  const [items] = await pool.query('SELECT id, sku, name, base_price, cost FROM items WHERE sku IN (?)', [SKUS]);
  const failed = (res, e) => {
    res.statusCode = 500;
    res.end(String(e));
  };
  const bare = http.createServer((_req, res) =>
    saleTransaction(pool, items, () => '{}').then(
      (_) => {
        res.statusCode = 201;
        res.end('{"success":true}');
      },
      (e) => failed(res, e),
    ),
  );
  await new Promise((r) => bare.listen(0, '127.0.0.1', r));
  const same = express();
  same.use(express.json());
  same.post('/pos/checkout', async (req, res) => {
    if (!(await access(req, res))) return;
    if (!Array.isArray(req.body?.items) || !req.body.idempotency_key) {
      res.status(422).json({ success: false, message: 'The body is not a checkout.' });
      return;
    }
    const answerOf = (id) => JSON.stringify({ ...serviceAnswer, data: { ...serviceAnswer.data, id } });
    saleTransaction(pool, items, answerOf).then(
      (answer) => {
        res.status(201).type('application/json').end(answer);
      },
      (e) => failed(res, e),
    );
  });
  return { bare: bare.address().port, same: await listen(same) };
}

async function serve() {
  require('reflect-metadata');
  const { createApiApp } = built('apps/api/src/bootstrap');
  const { loadConfig } = built('libs/platform/src');
  const config = loadConfig({
    NODE_ENV: 'production',
    APP_KEY: 'bench-only-app-key-0123456789abcdefghijkl',
    METRICS_TOKEN: 'bench-only-metrics-token-0123456789', // production refuses a public /metrics without one
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    DB_TYPE: 'mysql',
    DB_HOST: server.host,
    DB_PORT: String(server.port),
    DB_USERNAME: server.user,
    DB_PASSWORD: server.password,
    DB_DATABASE: DB,
    ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}), // the limiter in Redis, as in production
    RATE_LIMIT_STANDARD: '1000000',
    RATE_LIMIT_POS: '1000000',
    OPENAPI: 'false',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/v1`;
  const token = (await call(`${base}/auth/login`, { method: 'POST', body: { email: 'cashier@example.com', password: 'password' } })).data.token;
  await call(`${base}/sessions/open`, { method: 'POST', token, body: { store_id: 1, opening_balance: 0 } });
  const mysql = require('mysql2/promise');
  const db = await mysql.createConnection({ ...server, database: DB });
  const [rows] = await db.query('SELECT id FROM items WHERE sku IN (?)', [SKUS]);
  await db.end();
  const items = rows.map((r) => ({ id: r.id, qty: 1 }));
  const total = (await call(`${base}/pricing/cart`, { method: 'POST', token, body: { store_id: 1, items } })).data.total;
  // One real sale: its answer is what the same-work side sends (with its own sale id).
  const answer = await call(`${base}/pos/checkout`, { method: 'POST', token, body: checkoutBody(items, total) });
  const access = bareAccess({ storage: limiterStoreOf(app), tier: 'standard', limit: config.rateLimit.standard, permission: 'sales.create' });
  access.add(token, (await call(`${base}/auth/me`, { token })).data);
  // An orderly exit on SIGTERM, so a --cpu-prof profile is written.
  process.on('SIGTERM', () => process.exit(0));
  answerCpu();
  process.send({ base, token, items, total, ...(await bareServers(access, answer)) });
}

const checkoutBody = (items, total) => ({
  store_id: 1,
  idempotency_key: randomUUID(),
  items,
  payments: [{ payment_method_code: 'card', amount: total }],
  total_amount: total,
});

async function main() {
  await prepare();
  const autocannon = require('autocannon');
  const { child, ready } = startServer(__filename);
  const s = await ready;
  const post = (url, headers) => ({
    url,
    method: 'POST',
    connections: CONNECTIONS,
    headers,
    requests: [{ setupRequest: (r) => ({ ...r, body: JSON.stringify(checkoutBody(s.items, s.total)) }) }],
  });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${s.token}` };
  const sides = [post(`http://127.0.0.1:${s.bare}/`, {}), post(`http://127.0.0.1:${s.same}/pos/checkout`, headers), post(`${s.base}/pos/checkout`, headers)];
  try {
    await warmUp(autocannon, sides);
    const measured = await measureSides(autocannon, child, sides);
    const [bare, same, full] = measured.sides;
    console.log(`MySQL/MariaDB, 5-line cart, ${CONNECTIONS} connections, ${DURATION} s each, dist ${DIST}`);
    printRow('POST /pos/checkout', { full, bare, same }, { bare: 'bare mysql2 transaction', bareShort: 'bare transaction', same: 'bare Express, same work' });
    // The issue states this target against the bare transaction of the same writes.
    console.log(`  full/bare transaction ${roundRatios(measured.rounds, 2, 0)} (medians of ${ROUNDS} rounds above)`);
    console.log(verdict('pos/checkout', full, bare, { min: 0.6, maxCpu: 2, against: 'bare transaction' }));
  } finally {
    await stopServer(child);
  }
}

runAs(serve, main);
