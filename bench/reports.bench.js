/**
 * The 32 integration reports and the sales feeds on MySQL/MariaDB at a million sales.
 *   npm run bench:reports   (BENCH_SALES=1000000 BENCH_DB=pos_bench_reports BENCH_CONNECTIONS=10 BENCH_DURATION=4 BENCH_WARMUP=1;
 *                            DB_HOST, DB_PORT, DB_USERNAME, DB_PASSWORD as for the service)
 * Seeds once: when the database is missing or holds fewer sales it is created, migrated and filled
 * with `seed:volume` (a year of trading, then the rollups rebuilt); otherwise it is reused (pending
 * migrations are applied). Then the API runs in a child process and each report is loaded with 10
 * keep-alive connections for BENCH_DURATION seconds (after BENCH_WARMUP seconds of the same load, not
 * counted: JIT and caches), over the default 30 days and over a full year
 * (the 366 days up to today); each latency is measured here, so p50 / p95 / p99 are exact. The feeds
 * `/integration/sales` and `/integration/data/sales` are loaded at page 1 and page 1,000 (50 per page),
 * and their meta.total is checked against COUNT(*). Ends with one line:
 *   reports worst p95: 30d N ms, 1y M ms; feed p99: first A ms, deep B ms
 * BENCH_ONLY=feeds (or a comma list of report names) measures only those.
 * Each row also gives the API process's CPU per request (ms, from /proc): steadier than latency on a busy machine.
 * BENCH_DIST=<dir> runs that build (default <repo>/dist), e.g. an older worktree's dist for a before/after.
 */
const { execFileSync, fork } = require('node:child_process');
const http = require('node:http');
const path = require('node:path');

const DIST = path.resolve(process.env.BENCH_DIST ?? path.join(__dirname, '..', 'dist'));

const DB = process.env.BENCH_DB ?? 'pos_bench_reports';
const SALES = Number(process.env.BENCH_SALES ?? 1_000_000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 1);
const PORT = Number(process.env.BENCH_PORT ?? 3917);
// BENCH_ONLY=feeds, or a comma list of reports (e.g. invoices/credit-notes,closeout): measure only those.
const ONLY = process.env.BENCH_ONLY ? process.env.BENCH_ONLY.split(',') : null;
const server = {
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 3306),
  user: process.env.DB_USERNAME ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
};
const env = {
  ...process.env,
  NODE_ENV: 'development',
  DB_TYPE: 'mysql',
  DB_HOST: server.host,
  DB_PORT: String(server.port),
  DB_USERNAME: server.user,
  DB_PASSWORD: server.password,
  DB_DATABASE: DB,
};
delete env.DATABASE_URL;
delete env.REDIS_URL;

const REPORTS = [
  'overview',
  'sales',
  'discounts',
  'returns',
  'closeout',
  'profit',
  'products',
  'products/abc',
  'customers',
  'payments',
  'stores',
  'tax',
  'invoices',
  'invoices/aging',
  'invoices/dso',
  'invoices/credit-notes',
  'invoices/funnel',
  'revenue',
  'heatmap',
  'voids',
  'return-rate',
  'price-source',
  'cashier',
  'cashier/{cashier}',
  'inventory/overview',
  'inventory/stock',
  'inventory/movement',
  'inventory/valuation',
  'inventory/replenishment',
  'inventory/turns',
  'inventory/dead-stock',
  'inventory/damage-spoilage',
];
const PERMISSIONS = [
  'reports.view',
  'reports.sales',
  'reports.profit',
  'reports.inventory',
  'reports.customers',
  'reports.payments',
  'reports.stores',
  'reports.tax',
  'inventory.reports',
  'sales.view',
];

const cli = (...args) =>
  JSON.parse(
    execFileSync('node', ['--max-old-space-size=8192', path.join(DIST, 'apps/cli/src/main.js'), ...args], {
      env,
      cwd: path.dirname(DIST),
      stdio: ['ignore', 'pipe', 'inherit'],
    }).toString(),
  );

async function prepare() {
  const mysql = require('mysql2/promise');
  const root = await mysql.createConnection(server);
  const [[exists]] = await root.query('SELECT COUNT(*) AS n FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?', [DB]);
  let sales = 0;
  if (Number(exists.n)) {
    const [[row]] = await root.query(`SELECT COUNT(*) AS n FROM \`${DB}\`.sales`).catch(() => [[{ n: 0 }]]);
    sales = Number(row.n);
  }
  if (sales < SALES) {
    console.log(`seeding ${DB}: ${SALES} sales (a year of trading; this takes a while) ...`);
    await root.query(`DROP DATABASE IF EXISTS \`${DB}\``);
    await root.query(`CREATE DATABASE \`${DB}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    cli('migrate');
    cli('seed:volume', '--sales', String(SALES));
  } else {
    console.log(`reusing ${DB} (${sales} sales)`);
    cli('migrate');
  }
  const db = await mysql.createConnection({ ...server, database: DB });
  const [[counts]] = await db.query("SELECT COUNT(*) AS sales, SUM(status = 'voided') AS voided FROM sales");
  const [[cashier]] = await db.query(
    "SELECT id FROM users WHERE email LIKE 'cashier1.dt@%' UNION SELECT id FROM users WHERE email = 'cashier@example.com' LIMIT 1",
  );
  await db.end();
  await root.end();
  const app = cli('app:create', '--name', `bench ${Date.now()}`, '--permissions', PERMISSIONS.join(','));
  const token = cli('token:issue', '--app', String(app.id), '--name', 'bench', '--abilities', 'integration:read').token;
  return { token, sales: Number(counts.sales), voided: Number(counts.voided), cashierId: Number(cashier.id) };
}

function startApi() {
  return new Promise((resolve, reject) => {
    const child = fork(path.join(DIST, 'apps/api/src/main.js'), [], {
      cwd: path.dirname(DIST),
      // BENCH_API_ARGV='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the API (written when it stops).
      execArgv: process.env.BENCH_API_ARGV ? process.env.BENCH_API_ARGV.split(' ') : [],
      env: {
        ...env,
        PORT: String(PORT),
        LOG_LEVEL: 'warn',
        RATE_LIMIT_STANDARD: '1000000',
        RATE_LIMIT_POS: '1000000',
        SEED_DEMO_ON_FIRST_START: 'false',
        OPENAPI: 'false',
      },
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    child.on('exit', (code) => reject(new Error(`api exited with ${code}`)));
    const started = Date.now();
    const poll = () =>
      http
        .get({ host: '127.0.0.1', port: PORT, path: '/api/v1/health' }, (res) => {
          res.resume();
          if (res.statusCode === 200) resolve(child);
          else setTimeout(poll, 200);
        })
        .on('error', () => (Date.now() - started > 60_000 ? reject(new Error('api did not start')) : setTimeout(poll, 200)));
    poll();
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function get(path, token) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = http.get({ host: '127.0.0.1', port: PORT, path, agent, headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
  });
}

/**
 * CPU time (user + system, ms) the API process has used, from /proc (Linux; null elsewhere). On a
 * busy shared machine latencies move with the neighbours; the server CPU per request stays put.
 */
let apiPid = null;
const CLK_TCK = 100;
function apiCpuMs() {
  if (apiPid === null) return null;
  try {
    const fields = require('node:fs').readFileSync(`/proc/${apiPid}/stat`, 'utf8').split(') ')[1].split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return null;
  }
}

const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** `connections` loops for `seconds`, every latency kept, after WARMUP seconds of the same load (not kept: JIT, caches). */
async function load(path, token, connections = CONNECTIONS, seconds = DURATION) {
  for (let i = 0; i < 3; i++) {
    const warm = await get(path, token);
    if (warm.status !== 200) throw new Error(`${path}: ${warm.status} ${warm.body.toString().slice(0, 300)}`);
  }
  const run = async (secs) => {
    const latencies = [];
    let errors = 0;
    const until = Date.now() + secs * 1000;
    await Promise.all(
      Array.from({ length: connections }, async () => {
        while (Date.now() < until) {
          const r = await get(path, token);
          if (r.status !== 200) errors++;
          latencies.push(r.ms);
        }
      }),
    );
    return { latencies, errors };
  };
  await run(WARMUP);
  const cpuBefore = apiCpuMs();
  const { latencies, errors } = await run(seconds);
  const cpuAfter = apiCpuMs();
  latencies.sort((a, b) => a - b);
  return {
    cpu: cpuBefore === null || cpuAfter === null ? null : (cpuAfter - cpuBefore) / Math.max(1, latencies.length),
    n: latencies.length,
    rps: Math.round(latencies.length / seconds),
    p50: pct(latencies, 50),
    p95: pct(latencies, 95),
    p99: pct(latencies, 99),
    errors,
  };
}

const fmt = (v) => v.toFixed(1).padStart(7);
/** Server CPU ms per request (of the 1-connection run for reports: every request computed, none shared). */
const cpu = (v) => (v === null ? '      -' : v.toFixed(2).padStart(7));

async function main() {
  const { token, sales, voided, cashierId } = await prepare();
  console.log(`database ${DB}: ${sales} sales (${voided} voided); ${CONNECTIONS} connections, ${DURATION} s per run; build ${DIST}`);
  const api = await startApi();
  apiPid = api.pid;
  try {
    const today = new Date();
    const day = (d) => new Date(today.getTime() - d * 86_400_000).toISOString().slice(0, 10);
    const ranges = { '30d': '', '1y': `?date_from=${day(365)}&date_to=${day(0)}` };
    const worst = { '30d': 0, '1y': 0 };
    const worstAlone = { '30d': 0, '1y': 0 };
    // The floor on this machine: the same load on the health check (no token, no report).
    const floor = await load('/api/v1/health', token);
    console.log(
      `floor (GET /api/v1/health): p50 ${floor.p50.toFixed(1)} ms, p95 ${floor.p95.toFixed(1)} ms, p99 ${floor.p99.toFixed(1)} ms, ${floor.rps} req/s; load average ${require('node:os')
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(
      `\n${CONNECTIONS} connections (identical requests in flight share one computation); then 1 connection (every request computes alone)\n` +
        `${'report'.padEnd(28)} ${'range'.padEnd(5)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'req/s'.padStart(6)} errors | ${'alone p50'.padStart(9)} ${'p95'.padStart(7)} ${'cpu ms'.padStart(7)} ${'bytes'.padStart(8)}`,
    );
    for (const report of REPORTS.filter((r) => !ONLY || ONLY.includes(r))) {
      for (const [range, query] of Object.entries(ranges)) {
        const path = `/api/v1/integration/reports/${report.replace('{cashier}', String(cashierId))}${query}`;
        const r = await load(path, token);
        const alone = await load(path, token, 1, Math.max(1, DURATION / 2));
        const bytes = (await get(path, token)).body.length;
        worst[range] = Math.max(worst[range], r.p95);
        worstAlone[range] = Math.max(worstAlone[range], alone.p95);
        console.log(
          `${report.padEnd(28)} ${range.padEnd(5)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.p99)} ${String(r.rps).padStart(6)} ${String(r.errors).padStart(6)} | ${fmt(alone.p50).padStart(9)} ${fmt(alone.p95)} ${cpu(alone.cpu)} ${String(bytes).padStart(8)}`,
        );
      }
    }

    console.log(
      `\n${'feed'.padEnd(28)} ${'page'.padEnd(5)} ${'p50 ms'.padStart(7)} ${'p95 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'req/s'.padStart(6)} ${'cpu ms'.padStart(7)} ${'bytes'.padStart(7)} meta.total`,
    );
    const feed = { first: 0, deep: 0 };
    for (const base of !ONLY || ONLY.includes('feeds') ? ['/api/v1/integration/sales', '/api/v1/integration/data/sales'] : []) {
      for (const [label, page] of [
        ['first', 1],
        ['deep', 1000],
      ]) {
        const path = `${base}?per_page=50&page=${page}`;
        const raw = (await get(path, token)).body;
        const probe = JSON.parse(raw.toString());
        if (probe.meta.total !== sales) throw new Error(`${path}: meta.total ${probe.meta.total} is not the ${sales} sales`);
        if (probe.data.length !== 50) throw new Error(`${path}: ${probe.data.length} rows`);
        const r = await load(path, token);
        feed[label] = Math.max(feed[label], r.p99);
        console.log(
          `${base.replace('/api/v1', '').padEnd(28)} ${String(page).padEnd(5)} ${fmt(r.p50)} ${fmt(r.p95)} ${fmt(r.p99)} ${String(r.rps).padStart(6)} ${cpu(r.cpu)} ${String(raw.length).padStart(7)} ${probe.meta.total}`,
        );
      }
    }
    console.log(
      `load average ${require('node:os')
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}`,
    );
    console.log(`one computation alone (1 connection), worst p95: 30d ${Math.round(worstAlone['30d'])} ms, 1y ${Math.round(worstAlone['1y'])} ms`);
    console.log(
      `\nreports worst p95: 30d ${Math.round(worst['30d'])} ms, 1y ${Math.round(worst['1y'])} ms; feed p99: first ${Math.round(feed.first)} ms, deep ${Math.round(feed.deep)} ms`,
    );
  } finally {
    api.removeAllListeners('exit');
    api.kill('SIGTERM');
    agent.destroy();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
