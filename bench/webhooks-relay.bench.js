/**
 * Webhook relay through the real worker on MySQL/MariaDB + Redis: outbox rows -> relay ->
 * BullMQ -> signed POST to a local receiver (node:http on 127.0.0.1, answering 200 at once and
 * checking every signature). Two phases of BENCH_EVENTS (default 10,000) events each:
 *   burst   all committed at once (100 per transaction): throughput of the pipeline, events/s
 *   steady  committed at BENCH_RATE events/s (default: half the burst throughput, so the queue does
 *           not grow; 10 per transaction): commit -> delivery lag of a pipeline that keeps up
 * Lag = time the receiver got the request - time the producing transaction's COMMIT returned.
 *   npm run bench:webhooks   (DB_HOST/DB_PORT/DB_USERNAME/DB_PASSWORD, REDIS_URL; the worker
 *   runs with its defaults unless WEBHOOK_RELAY_INTERVAL_MS / WEBHOOK_CONCURRENCY are set)
 */
const { spawn, execFileSync } = require('node:child_process');
const { createHmac } = require('node:crypto');
const http = require('node:http');
const path = require('node:path');

const DB = process.env.BENCH_DB ?? 'pos_bench_webhooks';
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10000);
const RATE = process.env.BENCH_RATE ? Number(process.env.BENCH_RATE) : null;
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `pos-bench-wh-${process.pid}`;
const APP_KEY = 'bench-app-key-0123456789-0123456789-abcdef';
const SECRET = 'whsec_bench-secret-not-for-production-use-000000';
const server = {
  host: process.env.DB_HOST ?? '127.0.0.1',
  port: Number(process.env.DB_PORT ?? 3306),
  user: process.env.DB_USERNAME ?? 'root',
  password: process.env.DB_PASSWORD ?? '',
};
const root = path.join(__dirname, '..');

const env = {
  PATH: process.env.PATH,
  NODE_ENV: 'development',
  APP_KEY,
  LOG_LEVEL: 'warn',
  DB_TYPE: 'mysql',
  DB_HOST: server.host,
  DB_PORT: String(server.port),
  DB_USERNAME: server.user,
  DB_PASSWORD: server.password,
  DB_DATABASE: DB,
  REDIS_URL,
  QUEUE_PREFIX: PREFIX,
  WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
  ...(process.env.WEBHOOK_RELAY_INTERVAL_MS ? { WEBHOOK_RELAY_INTERVAL_MS: process.env.WEBHOOK_RELAY_INTERVAL_MS } : {}),
  ...(process.env.WEBHOOK_CONCURRENCY ? { WEBHOOK_CONCURRENCY: process.env.WEBHOOK_CONCURRENCY } : {}),
};

async function prepare(receiverUrl) {
  const mysql = require('mysql2/promise');
  const admin = await mysql.createConnection(server);
  await admin.query(`DROP DATABASE IF EXISTS \`${DB}\``);
  await admin.query(`CREATE DATABASE \`${DB}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
  await admin.end();
  execFileSync('node', [path.join(root, 'dist/apps/cli/src/main.js'), 'migrate'], { env, stdio: 'ignore' });
  const { SecretSealer } = require(path.join(root, 'dist/libs/platform/src/crypto/secret-sealer.js'));
  const sealed = new SecretSealer(APP_KEY, 'webhook-signing-secret').seal(SECRET);
  const db = await mysql.createConnection({ ...server, database: DB });
  await db.query(
    'INSERT INTO webhook_endpoints (url, description, events, active, secret_sealed, created_at, updated_at) VALUES (?, ?, ?, 1, ?, NOW(3), NOW(3))',
    [receiverUrl, 'bench receiver', '["customer.updated"]', sealed],
  );
  return db;
}

function receiver() {
  const arrivals = new Map(); // seq -> ms
  let requests = 0;
  let badSignatures = 0;
  let waiter = null;
  const s = http.createServer({ keepAlive: true }, (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const at = Date.now();
      requests++;
      const raw = Buffer.concat(chunks).toString('utf8');
      const expected = createHmac('sha256', SECRET).update(`${req.headers['x-service-timestamp']}.${raw}`).digest('hex');
      if (req.headers['x-service-signature'] !== expected) badSignatures++;
      const seq = JSON.parse(raw).data.seq;
      if (!arrivals.has(seq)) arrivals.set(seq, at);
      res.writeHead(200).end();
      if (waiter && waiter.check()) waiter.resolve();
    });
  });
  return {
    server: s,
    arrivals,
    stats: () => ({ requests, badSignatures }),
    waitFor(check, timeoutMs) {
      if (check()) return Promise.resolve();
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`timed out: ${arrivals.size} delivered`)), timeoutMs);
        waiter = {
          check,
          resolve: () => {
            clearTimeout(timer);
            waiter = null;
            resolve();
          },
        };
      });
    },
  };
}

async function produce(db, fromSeq, count, perTx, ratePerSec, commits) {
  const started = Date.now();
  for (let seq = fromSeq; seq < fromSeq + count; seq += perTx) {
    const n = Math.min(perTx, fromSeq + count - seq);
    if (ratePerSec) {
      const due = started + ((seq - fromSeq) / ratePerSec) * 1000;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    const rows = Array.from({ length: n }, (_, i) => [
      'customer.updated',
      JSON.stringify({ seq: seq + i, customer: { id: seq + i, name: `Bench ${seq + i}` } }),
    ]);
    await db.beginTransaction();
    await db.query(
      'INSERT INTO outbox_events (type, store_id, payload, created_at, published_at) VALUES ' + rows.map(() => '(?, NULL, ?, NOW(3), NULL)').join(', '),
      rows.flat(),
    );
    await db.commit();
    const at = Date.now();
    for (let i = 0; i < n; i++) commits.set(seq + i, at);
  }
}

/** utime + stime of a process from /proc (Linux), in seconds; null elsewhere. */
function workerCpuSeconds(pid) {
  try {
    const fields = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

async function waitDelivered(db, n) {
  for (let i = 0; i < 100; i++) {
    const [[row]] = await db.query("SELECT COUNT(*) AS n FROM webhook_deliveries WHERE status = 'delivered'");
    if (Number(row.n) >= n) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

function pct(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function report(name, from, count, commits, arrivals) {
  const lags = [];
  let first = Infinity;
  let last = 0;
  for (let seq = from; seq < from + count; seq++) {
    lags.push(arrivals.get(seq) - commits.get(seq));
    first = Math.min(first, commits.get(seq));
    last = Math.max(last, arrivals.get(seq));
  }
  lags.sort((a, b) => a - b);
  const seconds = (last - first) / 1000;
  console.log(
    `${name.padEnd(7)} ${count} events in ${seconds.toFixed(2)} s = ${Math.round(count / seconds)} events/s | ` +
      `commit->delivery lag p50 ${pct(lags, 50)} ms, p90 ${pct(lags, 90)} ms, p99 ${pct(lags, 99)} ms, max ${lags[lags.length - 1]} ms`,
  );
  return count / seconds;
}

async function cleanRedis() {
  const { Redis } = require('ioredis');
  const redis = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}:*`, 'COUNT', 1000);
    cursor = next;
    if (keys.length) await redis.del(...keys);
  } while (cursor !== '0');
  await redis.quit();
}

async function main() {
  const rx = receiver();
  await new Promise((r) => rx.server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${rx.server.address().port}/hook`;
  const db = await prepare(url);
  // BENCH_WORKER_NODE_ARGS="--cpu-prof --cpu-prof-dir=/tmp/prof" profiles the worker
  const nodeArgs = (process.env.BENCH_WORKER_NODE_ARGS ?? '').split(' ').filter(Boolean);
  const worker = spawn('node', [...nodeArgs, path.join(root, 'dist/apps/worker/src/main.js')], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise((resolve, reject) => {
    worker.stdout.on('data', (c) => String(c).includes('POS worker consuming jobs') && resolve());
    worker.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
    // LOG_LEVEL=warn hides the ready line: give it time instead
    setTimeout(resolve, 4000);
  });
  const commits = new Map();
  try {
    console.log(
      `webhooks relay bench: MySQL ${server.host}:${server.port}, ${REDIS_URL}, worker defaults` +
        (env.WEBHOOK_CONCURRENCY ? ` (concurrency ${env.WEBHOOK_CONCURRENCY})` : '') +
        `; ${require('node:os').cpus().length} CPUs, load average ${require('node:os').loadavg()[0].toFixed(1)}`,
    );
    await produce(db, 0, EVENTS, 100, 0, commits);
    await rx.waitFor(() => rx.arrivals.size >= EVENTS, 600_000);
    const burst = report('burst', 0, EVENTS, commits, rx.arrivals);

    const rate = RATE ?? Math.max(10, Math.round(burst / 2));
    await produce(db, EVENTS, EVENTS, 10, rate, commits);
    await rx.waitFor(() => rx.arrivals.size >= 2 * EVENTS, 600_000);
    report(`steady`, EVENTS, EVENTS, commits, rx.arrivals);
    console.log(`        (steady: offered ${rate} events/s in transactions of 10)`);

    await waitDelivered(db, 2 * EVENTS);
    const [stages] = await db.query(
      'SELECT TIMESTAMPDIFF(MICROSECOND, o.created_at, o.published_at) / 1000 AS relay, TIMESTAMPDIFF(MICROSECOND, d.created_at, d.last_attempt_at) / 1000 AS queued, ' +
        'TIMESTAMPDIFF(MICROSECOND, d.last_attempt_at, d.delivered_at) / 1000 AS attempt FROM webhook_deliveries d JOIN outbox_events o ON o.id = d.event_id',
    );
    const stage = (k) => {
      const v = stages.map((r) => Number(r[k])).sort((a, b) => a - b);
      return `p50 ${Math.round(pct(v, 50))} ms, p99 ${Math.round(pct(v, 99))} ms`;
    };
    console.log(
      `stages (both phases): outbox->relayed ${stage('relay')} | relayed->attempt started ${stage('queued')} | attempt (POST + record) ${stage('attempt')}`,
    );
    const [[state]] = await db.query("SELECT SUM(status = 'delivered') AS delivered, COUNT(*) AS total, SUM(attempts) AS attempts FROM webhook_deliveries");
    console.log(`load average at the end: ${require('node:os').loadavg()[0].toFixed(1)}`);
    const cpu = workerCpuSeconds(worker.pid);
    if (cpu !== null)
      console.log(
        `worker CPU: ${cpu.toFixed(1)} s for ${2 * EVENTS} deliveries = ${((cpu * 1000) / (2 * EVENTS)).toFixed(2)} ms per delivery (relay + queue + POST + log)`,
      );
    const { requests, badSignatures } = rx.stats();
    console.log(
      `deliveries: ${state.delivered}/${state.total} delivered, ${state.attempts} attempts, ${requests} requests received, ${badSignatures} bad signatures`,
    );
  } finally {
    worker.kill('SIGTERM');
    await new Promise((r) => worker.once('exit', r));
    await db.end();
    const mysql = require('mysql2/promise');
    const admin = await mysql.createConnection(server);
    await admin.query(`DROP DATABASE IF EXISTS \`${DB}\``);
    await admin.end();
    await cleanRedis();
    rx.server.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
