/**
 * Catalog lookups on MySQL/MariaDB with 100,000 items in 3 warehouses:
 *   GET /api/v1/pos/products/search?q=<barcode>   (exact barcode, the scanner path)
 *   GET /api/v1/pos/products/search?q=<name prefix>
 *   GET /api/v1/items?q=<name prefix>, and ?q=<words further into the name> (the word index)
 *   GET /api/v1/auth/me (no database: the ceiling any lookup through the stack can reach)
 * each next to a bare node:http + mysql2 server doing the same lookup (same rows and stock),
 * served from one child process; autocannon runs here. Prints req/s, p50, p99 and ratios.
 *
 *   npm run bench:catalog    (BENCH_DB=pos_bench_catalog BENCH_DURATION=10 BENCH_CONNECTIONS=50
 *                             DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD as for the service)
 * The database is created and filled on the first run and reused afterwards.
 */
const { fork } = require('node:child_process');
const http = require('node:http');
const { runAs } = require('./run-as');
const { answerCpu, cpuOf, cpuPerRequest } = require('./server-cpu');

const DB = process.env.BENCH_DB ?? 'pos_bench_catalog';
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const server = {
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 3306),
  user: process.env.DB_USERNAME ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
};
const barcodeOf = (i) => String(2_000_000_000_000 + i);

async function prepare() {
  const mysql = require('mysql2/promise');
  const root = await mysql.createConnection(server);
  await root.query(`CREATE DATABASE IF NOT EXISTS \`${DB}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
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
  const [[{ n }]] = await db.query("SELECT COUNT(*) AS n FROM items WHERE sku LIKE 'GEN-%'");
  if (Number(n) < ITEMS) {
    process.stderr.write(`generating ${ITEMS} items with barcodes and stock in 3 warehouses...\n`);
    const [[cat]] = await db.query('SELECT MIN(id) AS id FROM categories');
    const [whs] = await db.query('SELECT id FROM warehouses ORDER BY id');
    const words = ['Alpha', 'Bravo', 'Cobalt', 'Delta', 'Ember', 'Falcon', 'Garnet', 'Harbor', 'Indigo', 'Juniper'];
    const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
    for (let start = Number(n); start < ITEMS; start += 2000) {
      const end = Math.min(ITEMS, start + 2000);
      const rows = [];
      for (let i = start; i < end; i++)
        rows.push([
          `GEN-${String(i).padStart(6, '0')}`,
          `${words[i % 10]} ${words[((i / 10) | 0) % 10]} item ${i}`,
          cat.id,
          100 + (i % 5000),
          50,
          'each',
          1,
          0,
          10,
          20,
          now,
          now,
        ]);
      const [res] = await db.query(
        'INSERT INTO items (sku, name, category_id, base_price, cost, base_unit, is_active, is_serial_tracked, reorder_level, reorder_quantity, created_at, updated_at) VALUES ?',
        [rows],
      );
      const firstId = res.insertId;
      const codes = rows.map((_, k) => [firstId + k, barcodeOf(start + k)]);
      await db.query('INSERT INTO item_barcodes (item_id, barcode) VALUES ?', [codes]);
      const stock = [];
      for (let k = 0; k < rows.length; k++) for (const w of whs) stock.push([firstId + k, w.id, 5 + ((start + k) % 90), now]);
      await db.query('INSERT INTO stock_levels (item_id, warehouse_id, quantity, updated_at) VALUES ?', [stock]);
    }
  }
  // The items above were written around the API: their name search rows too (once).
  const [[{ w }]] = await db.query("SELECT COUNT(DISTINCT w.item_id) AS w FROM item_name_words w JOIN items i ON i.id = w.item_id WHERE i.sku LIKE 'GEN-%'");
  await db.end();
  if (Number(w) < ITEMS) {
    process.stderr.write('indexing item names (catalog:reindex-names)...\n');
    execFileSync('node', ['dist/apps/cli/src/main.js', 'catalog:reindex-names'], { env, stdio: 'ignore' });
  }
}

/** The bare baseline: node:http + a mysql2 pool answering the same three lookups. */
async function bareServer() {
  const mysql = require('mysql2/promise');
  const pool = mysql.createPool({ ...server, database: DB, connectionLimit: 20 });
  const withStock = async (items) => {
    if (!items.length) return [];
    const [stock] = await pool.query('SELECT item_id, quantity FROM stock_levels WHERE warehouse_id = 1 AND item_id IN (?)', [items.map((i) => i.id)]);
    return items.map((i) => ({ ...i, stock: stock.find((s) => s.item_id === i.id)?.quantity ?? 0 }));
  };
  const s = http.createServer(async (req, res) => {
    const url = new URL(req.url, 'http://x');
    const q = url.searchParams.get('q') ?? '';
    let rows;
    if (url.pathname === '/barcode') {
      [rows] = await pool.query(
        'SELECT i.id, i.sku, i.name, i.base_price FROM items i JOIN item_barcodes b ON b.item_id = i.id WHERE b.barcode = ? AND i.deleted_at IS NULL AND i.is_active = 1',
        [q],
      );
      rows = await withStock(rows);
    } else {
      [rows] = await pool.query(
        'SELECT i.id, i.sku, i.name, i.base_price FROM items i WHERE i.name LIKE ? AND i.deleted_at IS NULL AND i.is_active = 1 ORDER BY i.name, i.id LIMIT 20',
        [q + '%'],
      );
      rows = await withStock(rows);
    }
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ success: true, data: rows }));
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
    RATE_LIMIT_POS: '1000000',
    RATE_LIMIT_STANDARD: '1000000',
    OPENAPI: 'false',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const res = await fetch(`http://127.0.0.1:${app.getHttpServer().address().port}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'cashier@example.com', password: 'password' }),
  });
  // An orderly exit on SIGTERM, so a --cpu-prof profile is written.
  process.on('SIGTERM', () => process.exit(0));
  answerCpu();
  process.send({ api: app.getHttpServer().address().port, bare: await bareServer(), token: (await res.json()).data.token });
}

async function measure(autocannon, child, base, paths, headers) {
  let i = 0;
  const opts = { url: base, connections: CONNECTIONS, headers, requests: [{ setupRequest: (r) => ({ ...r, path: paths[i++ % paths.length] }) }] };
  await autocannon({ ...opts, duration: 2 });
  const before = await cpuOf(child);
  const r = await autocannon({ ...opts, duration: DURATION });
  const cpu = cpuPerRequest(before, await cpuOf(child), r.requests.total);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${base}: ${r.non2xx} non-2xx, ${r.errors} errors`);
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
  const ports = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (c) => reject(new Error(`server exited ${c}`)));
  });
  const api = `http://127.0.0.1:${ports.api}`;
  const bare = `http://127.0.0.1:${ports.bare}`;
  const auth = { authorization: `Bearer ${ports.token}` };
  const codes = Array.from({ length: 500 }, (_, k) => barcodeOf((k * 7919) % ITEMS));
  const prefixes = ['Alpha Bravo', 'Cobalt Delta', 'Ember Falcon', 'Garnet Harbor', 'Indigo Juniper', 'Delta Alpha'];
  const enc = encodeURIComponent;
  const later = Array.from({ length: 50 }, (_, k) => `item ${(k * 7919) % ITEMS}`);
  const cases = [
    ['POS search by barcode', codes.map((c) => `/api/v1/pos/products/search?q=${c}&store_id=1`), codes.map((c) => `/barcode?q=${c}`)],
    ['POS search by name prefix', prefixes.map((p) => `/api/v1/pos/products/search?q=${enc(p)}&store_id=1`), prefixes.map((p) => `/prefix?q=${enc(p)}`)],
    ['GET /items?q= (name prefix)', prefixes.map((p) => `/api/v1/items?q=${enc(p)}&per_page=20`), prefixes.map((p) => `/prefix?q=${enc(p)}`)],
    // Words further into the name ("... item 4242"): what a name-contains search is for; the bare side is still the prefix lookup.
    ['GET /items?q= (later word)', later.map((p) => `/api/v1/items?q=${enc(p)}&per_page=20`), prefixes.map((p) => `/prefix?q=${enc(p)}`)],
    // The ceiling: an authenticated route that reads no database at all (the request pipeline
    // alone: rate limit, token, policy, envelope, log line) next to the bare barcode lookup. No
    // lookup through the stack can reach a higher ratio than this one.
    ['ceiling: GET /auth/me (no DB)', ['/api/v1/auth/me'], codes.map((c) => `/barcode?q=${c}`)],
  ];
  console.log(`MySQL/MariaDB, ${ITEMS} items x 3 warehouses, ${CONNECTIONS} connections, ${DURATION} s each`);
  // BENCH_ONLY=barcode,prefix,items,later,ceiling measures a subset.
  const only = process.env.BENCH_ONLY?.split(',');
  const keys = ['barcode', 'prefix', 'items', 'later', 'ceiling'];
  for (const [name, apiPaths, barePaths] of cases.filter((_, k) => !only || only.includes(keys[k]))) {
    const b = await measure(autocannon, child, bare, barePaths, {});
    const a = await measure(autocannon, child, api, apiPaths, auth);
    console.log(
      `${name.padEnd(30)} API ${a.rps.toFixed(0).padStart(6)} req/s p50 ${a.p50} ms p99 ${a.p99} ms CPU ${a.cpu.toFixed(0)} us | bare mysql2 ${b.rps.toFixed(0).padStart(6)} req/s p50 ${b.p50} ms p99 ${b.p99} ms CPU ${b.cpu.toFixed(0)} us | ratio ${((a.rps / b.rps) * 100).toFixed(1)}% (CPU a request: bare / API ${((b.cpu / a.cpu) * 100).toFixed(1)}%)`,
    );
  }
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
}

runAs(serve, main);
