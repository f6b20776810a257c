/**
 * GET /api/v1/auth/me through the whole stack (rate limit, bearer auth, ability + permission,
 * validation, envelope, pino request log) versus a bare Express route returning the same JSON,
 * both served by one child process; autocannon runs in this process so the load generator does
 * not share the servers' event loop. Prints requests/s, latency and the ratio.
 *
 *   npm run bench:auth                 (BENCH_DURATION=10 BENCH_CONNECTIONS=50 LOG_LEVEL=info)
 */
const { fork } = require('node:child_process');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { runAs } = require('./run-as');

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function serve() {
  require('reflect-metadata');
  const express = require('express');
  const { createApiApp } = require('../dist/apps/api/src/bootstrap');
  const { loadConfig } = require('../dist/libs/platform/src');
  const dir = mkdtempSync(join(tmpdir(), 'pos-bench-'));
  const config = loadConfig({
    ...process.env,
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
    OPENAPI: 'false',
  });
  // pino writes request logs to stdout; send them nowhere so the terminal does not bottleneck.
  process.stdout.write = () => true;
  const app = await createApiApp(config);
  await app.listen(0, '127.0.0.1');
  const full = app.getHttpServer().address().port;

  const bare = express();
  const body = {
    success: true,
    data: {
      id: 3,
      name: 'Cass Cashier',
      email: 'cashier@example.com',
      role: { id: 3, name: 'Cashier' },
      store_id: 1,
      permissions: ['pos.access', 'sales.create'],
      discount_limits: { max_discount_percent: 10, max_discount_amount: 20 },
    },
  };
  bare.get('/api/v1/auth/me', (_req, res) => res.json(body));
  const server = bare.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));

  const res = await fetch(`http://127.0.0.1:${full}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'cashier@example.com', password: 'password' }),
  });
  const token = (await res.json()).data.token;
  process.send({ full, bare: server.address().port, token });
  process.on('message', async (m) => {
    if (m === 'stop') {
      await app.close();
      server.close();
      rmSync(dir, { recursive: true, force: true });
      process.exit(0);
    }
  });
}

async function measure(autocannon, url, headers) {
  await autocannon({ url, headers, connections: CONNECTIONS, duration: 2 }); // warm-up
  const r = await autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION });
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99 };
}

async function main() {
  const autocannon = require('autocannon');
  const execArgv = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
  const child = fork(__filename, ['serve'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'], execArgv });
  const ports = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  });
  const bare = await measure(autocannon, `http://127.0.0.1:${ports.bare}/api/v1/auth/me`, {});
  const full = await measure(autocannon, `http://127.0.0.1:${ports.full}/api/v1/auth/me`, { authorization: `Bearer ${ports.token}` });
  child.send('stop');
  const row = (name, m) =>
    `${name.padEnd(34)} ${m.rps.toFixed(0).padStart(8)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms`;
  console.log(`GET /api/v1/auth/me, ${CONNECTIONS} connections, ${DURATION} s each, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}`);
  console.log(row('bare Express route', bare));
  console.log(row('full stack (auth, guards, envelope)', full));
  console.log(`ratio full / bare: ${((full.rps / bare.rps) * 100).toFixed(1)}%`);
}

runAs(serve, main);
