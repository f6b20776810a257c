/**
 * POST /api/v1/pos/checkout of a 5-line cart on MySQL/MariaDB (unique idempotency key per
 * request, cash) next to a bare node:http + mysql2 server running the same writes in one
 * transaction (receipt counter, sale, 5 lines, payment, 5 conditional stock updates with their
 * ledger rows, invoice, outbox event, idempotency row). Server in a child, autocannon here.
 *   npm run bench:checkout   (BENCH_DURATION=10 BENCH_CONNECTIONS=10; DB_HOST/DB_USERNAME/...)
 */
const { fork } = require('node:child_process');
const http = require('node:http');
const { randomUUID } = require('node:crypto');
const { runAs } = require('./run-as');
const { answerCpu, cpuOf, cpuPerRequest } = require('./server-cpu');

const DB = process.env.BENCH_DB ?? 'pos_bench_checkout';
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
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
  execFileSync('node', ['dist/apps/cli/src/main.js', 'migrate'], { env, stdio: 'ignore' });
  execFileSync('node', ['dist/apps/cli/src/main.js', 'seed:demo'], { env, stdio: 'ignore' });
  const db = await mysql.createConnection({ ...server, database: DB });
  await db.query('UPDATE stock_levels SET quantity = 100000000');
  await db.end();
}

async function bareServer() {
  const mysql = require('mysql2/promise');
  const pool = mysql.createPool({ ...server, database: DB, connectionLimit: 20 });
  const [items] = await pool.query('SELECT id, sku, name, base_price, cost FROM items WHERE sku IN (?)', [SKUS]);
  const s = http.createServer(async (req, res) => {
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
      await conn.query(
        'INSERT INTO idempotency_keys (idem_key, scope, fingerprint, status, response_status, response_body, user_id, created_at) VALUES (?, "checkout", "x", "completed", 201, "{}", 3, ?)',
        [randomUUID(), now],
      );
      await conn.commit();
      res.statusCode = 201;
      res.end(JSON.stringify({ success: true, data: { id: sale.insertId } }));
    } catch (e) {
      await conn.rollback();
      res.statusCode = 500;
      res.end(String(e));
    } finally {
      conn.release();
    }
  });
  await new Promise((r) => s.listen(0, '127.0.0.1', r));
  return s.address().port;
}

async function serve() {
  require('reflect-metadata');
  const { createApiApp } = require('../dist/apps/api/src/bootstrap');
  const { loadConfig } = require('../dist/libs/platform/src');
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
    RATE_LIMIT_STANDARD: '1000000',
    RATE_LIMIT_POS: '1000000',
    OPENAPI: 'false',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/v1`;
  const token = (
    await (
      await fetch(`${base}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'cashier@example.com', password: 'password' }),
      })
    ).json()
  ).data.token;
  const auth = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
  await fetch(`${base}/sessions/open`, { method: 'POST', headers: auth, body: JSON.stringify({ store_id: 1, opening_balance: 0 }) });
  const mysql = require('mysql2/promise');
  const db = await mysql.createConnection({ ...server, database: DB });
  const [rows] = await db.query('SELECT id FROM items WHERE sku IN (?)', [SKUS]);
  await db.end();
  const items = rows.map((r) => ({ id: r.id, qty: 1 }));
  const priced = await (await fetch(`${base}/pricing/cart`, { method: 'POST', headers: auth, body: JSON.stringify({ store_id: 1, items }) })).json();
  const total = priced.data.total;
  // An orderly exit on SIGTERM, so a --cpu-prof profile is written.
  process.on('SIGTERM', () => process.exit(0));
  answerCpu();
  process.send({ base, token, items, total, bare: await bareServer() });
}

async function measure(autocannon, child, url, headers, makeBody) {
  const opts = { url, method: 'POST', connections: CONNECTIONS, headers, requests: [{ setupRequest: (r) => ({ ...r, body: makeBody() }) }] };
  await autocannon({ ...opts, duration: 2 });
  const before = await cpuOf(child);
  const r = await autocannon({ ...opts, duration: DURATION });
  const cpu = cpuPerRequest(before, await cpuOf(child), r.requests.total);
  if (r.non2xx || r.errors) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpu };
}

async function main() {
  await prepare();
  const autocannon = require('autocannon');
  // BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the server side.
  const child = fork(__filename, ['serve'], {
    execArgv: process.env.BENCH_SERVER_NODE_ARGS ? process.env.BENCH_SERVER_NODE_ARGS.split(' ') : process.execArgv,
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const s = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const bare = await measure(autocannon, child, `http://127.0.0.1:${s.bare}/`, {}, () => '{}');
  const api = await measure(autocannon, child, `${s.base}/pos/checkout`, { 'content-type': 'application/json', authorization: `Bearer ${s.token}` }, () =>
    JSON.stringify({
      store_id: 1,
      idempotency_key: randomUUID(),
      items: s.items,
      payments: [{ payment_method_code: 'card', amount: s.total }],
      total_amount: s.total,
    }),
  );
  console.log(`MySQL/MariaDB, 5-line cart, ${CONNECTIONS} connections, ${DURATION} s each`);
  const cpu = (m) => `server CPU ${(m.cpu / 1000).toFixed(2)} ms/request`;
  console.log(`POST /pos/checkout     ${api.rps.toFixed(0).padStart(6)} req/s  p50 ${api.p50} ms  p99 ${api.p99} ms  ${cpu(api)}`);
  console.log(`bare mysql2 transaction ${bare.rps.toFixed(0).padStart(5)} req/s  p50 ${bare.p50} ms  p99 ${bare.p99} ms  ${cpu(bare)}`);
  console.log(`ratio API / bare: ${((api.rps / bare.rps) * 100).toFixed(1)}% (server CPU a request, bare / API: ${((bare.cpu / api.cpu) * 100).toFixed(1)}%)`);
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

runAs(serve, main);
