/**
 * Offline sync on MySQL/MariaDB with a 100,000-item store:
 *   1. GET /api/v1/sync/initial of the whole store, gzip, following next_cursor (limit 1,000 and
 *      5,000): seconds, pages, bytes on the wire and uncompressed, and the API process's peak RSS
 *      (its own process, read from /proc: VmHWM, reset before each run), with the peak over the
 *      first and the last tenth of the pages (memory must not grow with the catalog);
 *   2. POST /api/v1/sync/upload of 500 offline sales (1 to 3 lines each) in one request, then the
 *      same upload again (500 duplicates): seconds.
 *
 *   npm run bench:sync   (BENCH_DB=pos_bench_sync BENCH_ITEMS=100000; DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD)
 * The database is created and filled on the first run and reused afterwards (uploads add sales).
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const { randomUUID } = require('node:crypto');
const { gunzipSync } = require('node:zlib');

const DB = process.env.BENCH_DB ?? 'pos_bench_sync';
const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const server = {
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 3306),
  user: process.env.DB_USERNAME ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
};
const dbEnv = {
  DB_TYPE: 'mysql',
  DB_HOST: server.host,
  DB_PORT: String(server.port),
  DB_USERNAME: server.user,
  DB_PASSWORD: server.password,
  DB_DATABASE: DB,
};

async function prepare() {
  const mysql = require('mysql2/promise');
  const root = await mysql.createConnection(server);
  await root.query(`CREATE DATABASE IF NOT EXISTS \`${DB}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await root.end();
  const env = { ...process.env, NODE_ENV: 'development', DEMO_HISTORY_DAYS: '0', ...dbEnv };
  execFileSync('node', ['dist/apps/cli/src/main.js', 'migrate'], { env, stdio: 'ignore' });
  execFileSync('node', ['dist/apps/cli/src/main.js', 'seed:demo'], { env, stdio: 'ignore' });
  const db = await mysql.createConnection({ ...server, database: DB });
  const [[{ n }]] = await db.query("SELECT COUNT(*) AS n FROM items WHERE sku LIKE 'GEN-%'");
  if (Number(n) < ITEMS) {
    process.stderr.write(`generating ${ITEMS} items with barcodes and stock in 3 warehouses...\n`);
    const [[cat]] = await db.query('SELECT MIN(id) AS id FROM categories');
    const [whs] = await db.query('SELECT id FROM warehouses ORDER BY id');
    const now = new Date().toISOString().slice(0, 23).replace('T', ' ');
    for (let start = Number(n); start < ITEMS; start += 2000) {
      const end = Math.min(ITEMS, start + 2000);
      const rows = [];
      for (let i = start; i < end; i++)
        rows.push([`GEN-${String(i).padStart(6, '0')}`, `Generated item ${i}`, cat.id, 100 + (i % 5000), 50, 'each', 1, 0, 10, 20, now, now]);
      const [res] = await db.query(
        'INSERT INTO items (sku, name, category_id, base_price, cost, base_unit, is_active, is_serial_tracked, reorder_level, reorder_quantity, created_at, updated_at) VALUES ?',
        [rows],
      );
      const firstId = res.insertId;
      await db.query('INSERT INTO item_barcodes (item_id, barcode) VALUES ?', [rows.map((_, k) => [firstId + k, String(3_000_000_000_000 + start + k)])]);
      const stock = [];
      for (let k = 0; k < rows.length; k++) for (const w of whs) stock.push([firstId + k, w.id, 1000, now]);
      await db.query('INSERT INTO stock_levels (item_id, warehouse_id, quantity, updated_at) VALUES ?', [stock]);
    }
  }
  const [gen] = await db.query("SELECT id, base_price FROM items WHERE sku LIKE 'GEN-%' ORDER BY id LIMIT 2000");
  await db.end();
  return gen.map((r) => ({ id: Number(r.id), price: Number(r.base_price) }));
}

function freePort() {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function request(port, method, path, { token, body, gzip } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
          ...(gzip ? { 'accept-encoding': 'gzip' } : {}),
        },
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const wire = Buffer.concat(chunks);
          const raw = res.headers['content-encoding'] === 'gzip' ? gunzipSync(wire) : wire;
          resolve({ status: res.statusCode, wireBytes: wire.length, rawBytes: raw.length, body: JSON.parse(raw.toString('utf8')) });
        });
      },
    );
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

const proc = (pid, key) => {
  const m = new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
};
/** Resets the process's peak RSS (VmHWM) so a run measures its own peak. */
const resetPeak = (pid) => fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
const mb = (b) => `${(b / 1048576).toFixed(1)} MB`;

async function initialSync(port, pid, token, limit) {
  resetPeak(pid);
  const rssBefore = proc(pid, 'VmRSS');
  const started = process.hrtime.bigint();
  let path = `/api/v1/sync/initial?store_id=1&limit=${limit}`;
  let pages = 0;
  let wire = 0;
  let raw = 0;
  let items = 0;
  const peaks = [];
  for (;;) {
    const res = await request(port, 'GET', path, { token, gzip: true });
    if (res.status !== 200) throw new Error(`initial ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    pages += 1;
    wire += res.wireBytes;
    raw += res.rawBytes;
    items += res.body.data.records.items.length;
    peaks.push(proc(pid, 'VmHWM'));
    if (res.body.data.complete) break;
    path = `/api/v1/sync/initial?limit=${limit}&cursor=${encodeURIComponent(res.body.data.next_cursor)}`;
  }
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const tenths = Array.from({ length: 10 }, (_, k) => peaks[Math.min(pages, Math.ceil(((k + 1) * pages) / 10)) - 1]);
  console.log(
    `initial sync, limit ${String(limit).padStart(4)}: ${items} items in ${pages} pages, ${seconds.toFixed(2)} s; ` +
      `${mb(wire)} gzip on the wire (${mb(raw)} JSON); API RSS before ${mb(rssBefore)}, peak ${mb(tenths[9])}; ` +
      `peak after each tenth of the pages: ${tenths.map((b) => (b / 1048576).toFixed(0)).join(' ')} MB`,
  );
}

async function upload(port, token, gen) {
  const now = Date.now();
  const transactions = Array.from({ length: 500 }, (_, s) => {
    const lines = Array.from({ length: 1 + (s % 3) }, (_, l) => gen[(s * 3 + l) % gen.length]);
    const total = lines.reduce((a, l) => a + l.price, 0);
    return {
      idempotency_key: randomUUID(),
      type: 'sale',
      offline_created_at: new Date(now - 3_600_000 + s * 1000).toISOString(),
      data: {
        items: lines.map((l) => ({ id: l.id, qty: 1, price: l.price / 100 })),
        payments: [{ payment_method_code: 'cash', amount: total / 100 }],
        total_amount: total / 100,
      },
    };
  });
  const body = { store_id: 1, transactions };
  let started = process.hrtime.bigint();
  const first = await request(port, 'POST', '/api/v1/sync/upload', { token, body });
  const s1 = Number(process.hrtime.bigint() - started) / 1e9;
  if (first.status !== 200 || first.body.data.accepted !== 500) throw new Error(`upload ${first.status} ${JSON.stringify(first.body).slice(0, 500)}`);
  started = process.hrtime.bigint();
  const again = await request(port, 'POST', '/api/v1/sync/upload', { token, body });
  const s2 = Number(process.hrtime.bigint() - started) / 1e9;
  if (again.body.data.duplicate !== 500) throw new Error('the repeat was not 500 duplicates');
  console.log(
    `upload of 500 offline sales (1-3 lines, ${(JSON.stringify(body).length / 1024).toFixed(0)} KB): ${s1.toFixed(2)} s (${((s1 * 1000) / 500).toFixed(1)} ms a sale); ` +
      `the same upload again (500 duplicates): ${s2.toFixed(2)} s`,
  );
}

async function main() {
  const gen = await prepare();
  const port = await freePort();
  const api = spawn('node', ['dist/apps/api/src/main.js'], {
    env: {
      ...process.env,
      ...dbEnv,
      NODE_ENV: 'production',
      APP_KEY: 'bench-only-app-key-0123456789abcdefghijkl',
      METRICS_TOKEN: 'bench-only-metrics-token-0123456789', // production refuses a public /metrics without one
      PORT: String(port),
      LOG_LEVEL: 'warn',
      OPENAPI: 'false',
      RATE_LIMIT_BULK: '1000000',
      RATE_LIMIT_STANDARD: '1000000',
      RATE_LIMIT_LOGIN: '1000',
      // e.g. --max-old-space-size=96: the download must fit a heap far smaller than the catalog's JSON
      ...(process.env.BENCH_API_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_API_NODE_OPTIONS } : {}),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await request(port, 'GET', '/api/v1/health')).status === 200) break;
      } catch {
        if (i > 300) throw new Error('the API did not start');
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const login = await request(port, 'POST', '/api/v1/auth/login', {
      body: { email: 'cashier@example.com', password: 'password', device_name: 'Bench till' },
    });
    const token = login.body.data.token;
    console.log(`MySQL/MariaDB, store DT with ${ITEMS + 32} items x 2 warehouses serving it; API in its own process (pid ${api.pid})`);
    await initialSync(port, api.pid, token, 1000); // the first run also warms caches and JIT
    await initialSync(port, api.pid, token, 1000);
    await initialSync(port, api.pid, token, 5000);
    await upload(port, token, gen);
  } finally {
    api.kill('SIGTERM');
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
