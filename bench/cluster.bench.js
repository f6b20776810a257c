/**
 * Sales on the drill's cluster (scripts/cluster/cluster.sh up first; `npm run bench:cluster`):
 *   1. one API replica writing through HAProxy's write endpoint (one Galera node takes every write);
 *   2. two API replicas through the same endpoint;
 *   3. two API replicas each writing to its own Galera node (multi-writer), the same store:
 *      the store's receipt counter and sale-count rows are certified against each other.
 * Each run: BENCH_CONNECTIONS concurrent tills per replica for BENCH_DURATION seconds, a 3-line cash
 * sale each, a fresh idempotency key per sale. Printed: sales/s, p50/p99, 503s, and whole-transaction
 * retries per sale (pos_db_transaction_retries_total), and the ratios against run 1.
 */
const { execFileSync, spawn } = require('node:child_process');
const { randomUUID } = require('node:crypto');
const mysql = require('mysql2/promise');

const BASE = Number(process.env.CLUSTER_PORT_BASE ?? 13800);
const WRITE = BASE + 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 15);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 6);
const DB = process.env.BENCH_DB ?? 'pos_bench_cluster';
const SKUS = ['BEV-001', 'BEV-003', 'HSE-001'];
const procs = [];

const env = (port, dbPort, extra = {}) => ({
  PATH: process.env.PATH,
  NODE_ENV: 'development',
  DEMO_HISTORY_DAYS: '0',
  LOG_LEVEL: 'warn',
  APP_KEY: 'b'.repeat(64),
  DB_TYPE: 'mysql',
  DB_HOST: '127.0.0.1',
  DB_PORT: String(dbPort),
  DB_USERNAME: 'root',
  DB_PASSWORD: '',
  DB_DATABASE: DB,
  PORT: String(port),
  RATE_LIMIT_LOGIN: '100000',
  RATE_LIMIT_STANDARD: '1000000',
  RATE_LIMIT_POS: '1000000',
  ...extra,
});

async function prepare() {
  const root = await mysql.createConnection({ host: '127.0.0.1', port: WRITE, user: 'root' });
  await root.query(`DROP DATABASE IF EXISTS \`${DB}\``);
  await root.query(`CREATE DATABASE \`${DB}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await root.end();
  for (const cmd of ['migrate', 'seed:demo']) execFileSync('node', ['dist/apps/cli/src/main.js', cmd], { env: env(3000, WRITE), stdio: 'ignore' });
  const db = await mysql.createConnection({ host: '127.0.0.1', port: WRITE, user: 'root', database: DB });
  await db.query('UPDATE stock_levels SET quantity = 100000000');
  const [items] = await db.query('SELECT id FROM items WHERE sku IN (?)', [SKUS]);
  const [[store]] = await db.query("SELECT id FROM stores WHERE code = 'DT'");
  await db.end();
  return { cart: items.map((i) => ({ id: Number(i.id), qty: 1 })), store: Number(store.id) };
}

async function api(port, dbPort) {
  const child = spawn(process.execPath, ['dist/apps/api/src/main.js'], { env: env(port, dbPort), stdio: 'ignore' });
  procs.push(child);
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/v1/health`)).status === 200) return { url: `http://127.0.0.1:${port}`, child };
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`API on ${port} did not start`);
}

const post = (url, path, token, body) =>
  fetch(`${url}/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });

/** CPU seconds a process has used (utime + stime, /proc), for CPU per sale. */
function cpuSeconds(pid) {
  try {
    const fields = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}
const nodePids = () =>
  [1, 2, 3].map((n) => {
    try {
      return Number(require('node:fs').readFileSync(`${process.env.CLUSTER_DIR ?? '/tmp/pos-cluster'}/node${n}/mysqld.pid`, 'utf8'));
    } catch {
      return 0;
    }
  });

async function retries(url) {
  const text = await (await fetch(`${url}/metrics`)).text();
  return Number(/^pos_db_transaction_retries_total (\d+)/m.exec(text)?.[1] ?? 0);
}

async function run(label, apis, setup) {
  const before = await Promise.all(apis.map((a) => retries(a.url)));
  const apiCpu0 = apis.map((a) => cpuSeconds(a.child.pid));
  const dbCpu0 = nodePids().map(cpuSeconds);
  const latencies = [];
  let unavailable = 0;
  let other = 0;
  const until = Date.now() + DURATION * 1000;
  const till = async (a) => {
    while (Date.now() < until) {
      const body = {
        store_id: setup.store,
        idempotency_key: randomUUID(),
        items: setup.cart,
        payments: [{ payment_method_code: 'cash', amount: setup.total }],
        total_amount: setup.total,
      };
      const started = performance.now();
      const res = await post(a.url, '/pos/checkout', setup.token, body);
      await res.arrayBuffer();
      if (res.status === 201) latencies.push(performance.now() - started);
      else if (res.status === 503) unavailable++;
      else other++;
    }
  };
  await Promise.all(apis.flatMap((a) => Array.from({ length: CONNECTIONS }, () => till(a))));
  const after = await Promise.all(apis.map((a) => retries(a.url)));
  const apiCpu = apis.reduce((n, a, i) => n + cpuSeconds(a.child.pid) - apiCpu0[i], 0);
  const dbCpu = nodePids().map((pid, i) => cpuSeconds(pid) - dbCpu0[i]);
  latencies.sort((x, y) => x - y);
  const q = (p) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
  const sales = latencies.length;
  const retried = after.reduce((n, v, i) => n + v - before[i], 0);
  const figures = {
    label,
    sales_per_s: Math.round((sales / DURATION) * 10) / 10,
    p50_ms: q(0.5),
    p99_ms: q(0.99),
    answered_503: unavailable,
    other_errors: other,
    retries_per_sale: Math.round((retried / Math.max(1, sales)) * 100) / 100,
    api_cpu_ms_per_sale: Math.round((apiCpu * 1000) / Math.max(1, sales)),
    db_cpu_ms_per_sale_by_node: dbCpu.map((c) => Math.round((c * 1000) / Math.max(1, sales))),
  };
  console.log(JSON.stringify(figures));
  return figures;
}

async function main() {
  const setup = await prepare();
  const a1 = await api(13980, WRITE);
  const login = await (await post(a1.url, '/auth/login', undefined, { email: 'admin@example.com', password: 'password' })).json();
  setup.token = login.data.token;
  await post(a1.url, '/sessions/open', setup.token, { store_id: setup.store, opening_balance: 100 });
  const priced = await (
    await post(a1.url, '/pos/checkout/validate', setup.token, {
      store_id: setup.store,
      idempotency_key: 'price',
      items: setup.cart,
      payments: [{ payment_method_code: 'cash', amount: 0.01 }],
      total_amount: 0.01,
    })
  ).json();
  setup.total = Number(priced.server_total);
  const one = await run('1 API replica, writes through HAProxy (one node)', [a1], setup);
  const a2 = await api(13981, WRITE);
  const two = await run('2 API replicas, writes through HAProxy (one node)', [a1, a2], setup);
  const m1 = await api(13982, BASE + 1);
  const m2 = await api(13983, BASE + 2);
  const multi = await run('2 API replicas, each writing to its own node (multi-writer)', [m1, m2], setup);
  console.log(
    JSON.stringify({
      two_replicas_vs_one: Math.round((two.sales_per_s / one.sales_per_s) * 100) / 100,
      multi_writer_vs_one_writer: Math.round((multi.sales_per_s / two.sales_per_s) * 100) / 100,
    }),
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => {
    for (const p of procs) p.kill('SIGKILL');
  });
