/**
 * Catalog lookups on MySQL/MariaDB with 100,000 items in 3 warehouses:
 *   GET /api/v1/pos/products/search?q=<barcode>   (exact barcode, the scanner path)
 *   GET /api/v1/pos/products/search?q=<name prefix>
 *   GET /api/v1/items?q=<name prefix>, and ?q=<words further into the name> (the word index)
 *   GET /api/v1/items?q=<one letter> (a typeahead's first keystroke; no target of issue 29)
 *   GET /api/v1/items?page=1..5 (plain pages, the back office's first view; no target of issue 29)
 *   GET /api/v1/auth/me (no database: the ceiling any lookup through the stack can reach)
 * each next to two bare servers in the same child:
 *   - bare query: node:http + mysql2 doing the lookup alone (same rows and stock; no token, no
 *     limit, no price): the gap;
 *   - same work: Express doing what the service must (catalog-same-work.js): token hash + lookup,
 *     the limiter's count, the very statements the service runs for that path, the live price
 *     from the pricing engine, the same JSON answer built with a plain map.
 * autocannon runs here. Prints req/s, p50, p99, server CPU per request of each side, both ratios
 * and a verdict per target of issue 29 (lookups >= 60% of same work, items?q= >= 50% of the bare
 * prefix lookup, p99 <= 2x).
 *
 *   npm run bench:catalog    (BENCH_DB=pos_bench_catalog BENCH_DURATION=10 BENCH_CONNECTIONS=50
 *                             BENCH_DIST=<repo>/dist BENCH_ONLY=barcode,prefix,items,later,letter,list,ceiling
 *                             DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD as for the service)
 * The database is created and filled on the first run and reused afterwards.
 */
const http = require('node:http');
const { join } = require('node:path');
const { runAs } = require('./run-as');
const { answerCpu } = require('./server-cpu');
const { DIST, ROUNDS, built, call, measureSides, roundRatios, warmUp, printRow, verdict, startServer, stopServer } = require('./same-work');
const { statementRecorder, catalogSameWork } = require('./catalog-same-work');

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
  execFileSync('node', [join(DIST, 'apps/cli/src/main.js'), 'migrate'], { env, stdio: 'ignore' });
  execFileSync('node', [join(DIST, 'apps/cli/src/main.js'), 'seed:demo'], { env, stdio: 'ignore' });
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
    execFileSync('node', [join(DIST, 'apps/cli/src/main.js'), 'catalog:reindex-names'], { env, stdio: 'ignore' });
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
    } else if (url.pathname === '/list') {
      [rows] = await pool.query('SELECT i.id, i.sku, i.name, i.base_price FROM items i WHERE i.deleted_at IS NULL ORDER BY i.name, i.id LIMIT 20 OFFSET ?', [
        20 * (Number(url.searchParams.get('page')) - 1),
      ]);
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

const enc = encodeURIComponent;
const codes = Array.from({ length: 500 }, (_, k) => barcodeOf((k * 7919) % ITEMS));
const prefixes = ['Alpha Bravo', 'Cobalt Delta', 'Ember Falcon', 'Garnet Harbor', 'Indigo Juniper', 'Delta Alpha'];
const later = Array.from({ length: 50 }, (_, k) => `item ${(k * 7919) % ITEMS}`);
const barcodePaths = codes.map((c) => `/barcode?q=${c}`);
const prefixPaths = prefixes.map((p) => `/prefix?q=${enc(p)}`);

/** [key, name, API paths (the same-work side gets the same), bare query paths]; BENCH_ONLY=barcode,prefix,... measures a subset. */
function cases() {
  const all = [
    ['barcode', 'POS search by barcode', codes.map((c) => `/api/v1/pos/products/search?q=${c}&store_id=1`), barcodePaths],
    ['prefix', 'POS search by name prefix', prefixes.map((p) => `/api/v1/pos/products/search?q=${enc(p)}&store_id=1`), prefixPaths],
    ['items', 'GET /items?q= (name prefix)', prefixes.map((p) => `/api/v1/items?q=${enc(p)}&per_page=20`), prefixPaths],
    // Words further into the name ("... item 4242"): what a name-contains search is for; the bare side is still the prefix lookup.
    ['later', 'GET /items?q= (later word)', later.map((p) => `/api/v1/items?q=${enc(p)}&per_page=20`), prefixPaths],
    // A typeahead's first keystroke: one letter (a word start of 19-100% of the items; letters no
    // demo SKU starts with, so the words alone find them). No target.
    [
      'letter',
      'GET /items?q= (one letter)',
      ['a', 'd', 'f', 'i', 'j'].map((l) => `/api/v1/items?q=${l}&per_page=20`),
      ['A', 'D', 'F', 'I', 'J'].map((l) => `/prefix?q=${l}`),
    ],
    // The back office's first view: plain pages 1-5 (every live item in name order, with the exact
    // total); the bare side reads the same pages of the name index, without a total. No target.
    ['list', 'GET /items (plain pages 1-5)', [1, 2, 3, 4, 5].map((p) => `/api/v1/items?per_page=20&page=${p}`), [1, 2, 3, 4, 5].map((p) => `/list?page=${p}`)],
    // The ceiling: an authenticated route that reads no database at all (the request pipeline
    // alone: rate limit, token, policy, envelope, log line) next to the bare barcode lookup (and
    // the same-work barcode lookup). No lookup through the stack can reach a higher ratio.
    ['ceiling', 'ceiling: GET /auth/me (no DB)', ['/api/v1/auth/me'], barcodePaths],
  ];
  const only = process.env.BENCH_ONLY?.split(',');
  return all.filter(([key]) => !only || only.includes(key));
}

async function serve() {
  require('reflect-metadata');
  const recorder = statementRecorder(DIST);
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
    RATE_LIMIT_POS: '1000000',
    RATE_LIMIT_STANDARD: '1000000',
    OPENAPI: 'false',
  });
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/v1`;
  const token = (await call(`${base}/auth/login`, { method: 'POST', body: { email: 'cashier@example.com', password: 'password' } })).data.token;
  // The same-work side replays the statements the service runs for each path: captured here.
  const paths = cases()
    .filter(([key]) => key !== 'ceiling')
    .flatMap(([, , api]) => api);
  // The ceiling row's same-work side is the barcode lookup's.
  if (cases().some(([key]) => key === 'ceiling')) paths.push(...codes.map((c) => `/api/v1/pos/products/search?q=${c}&store_id=1`));
  const same = await catalogSameWork({ app, config, dist: DIST, recorder, base, token, db: { ...server, database: DB }, paths });
  // An orderly exit on SIGTERM, so a --cpu-prof profile is written.
  process.on('SIGTERM', () => process.exit(0));
  answerCpu();
  process.send({ base, bare: await bareServer(), same, token });
}

async function main() {
  await prepare();
  const autocannon = require('autocannon');
  const { child, ready } = startServer(__filename);
  const s = await ready;
  const auth = { authorization: `Bearer ${s.token}` };
  const side = (origin, paths, headers) => {
    let i = 0;
    return { url: origin, connections: CONNECTIONS, headers, requests: [{ setupRequest: (r) => ({ ...r, path: paths[i++ % paths.length] }) }] };
  };
  const origin = (port) => `http://127.0.0.1:${port}`;
  const apiOrigin = s.base.replace(/\/api\/v1$/, '');
  const barcodeApi = codes.map((c) => `/api/v1/pos/products/search?q=${c}&store_id=1`);
  console.log(`MySQL/MariaDB, ${ITEMS} items x 3 warehouses, ${CONNECTIONS} connections, ${DURATION} s each, medians of ${ROUNDS} rounds, dist ${DIST}`);
  const verdicts = [];
  try {
    const sidesOf = ([key, , apiPaths, barePaths]) => [
      side(origin(s.bare), barePaths, {}),
      side(origin(s.same), key === 'ceiling' ? barcodeApi : apiPaths, auth),
      side(apiOrigin, apiPaths, auth),
    ];
    await warmUp(autocannon, sidesOf(cases()[0]));
    for (const c of cases()) {
      const [key, name] = c;
      const sides = sidesOf(c);
      const measured = await measureSides(autocannon, child, sides, [`${name} (bare)`, `${name} (same work)`, name]);
      const [bare, same, full] = measured.sides;
      printRow(name, { full, bare, same }, { bare: 'bare mysql2 query', bareShort: 'bare query', same: 'bare Express, same work' });
      console.log(`  full/same work ${roundRatios(measured.rounds, 2, 1)}, full/bare query ${roundRatios(measured.rounds, 2, 0)}`);
      // The row's own work done by a bare server, against the bare lookup: what a service with no
      // pipeline at all would reach on this target (since round 14).
      if (key === 'items' || key === 'later') console.log(`  ceiling: same work/bare query ${((100 * same.rps) / bare.rps).toFixed(1)}%`);
      if (key === 'barcode' || key === 'prefix') verdicts.push(verdict(name, full, same, { min: 0.6, against: 'same work' }));
      if (key === 'items' || key === 'later') verdicts.push(verdict(name, full, bare, { min: 0.5, against: 'the bare prefix lookup' }));
    }
    for (const v of verdicts) console.log(v);
  } finally {
    await stopServer(child);
  }
}

runAs(serve, main);
