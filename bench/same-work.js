/**
 * Shared pieces of the benches that compare the service with a bare server doing the SAME work
 * (issue 29): the built code to serve from (BENCH_DIST), the pieces of per-request work every
 * protected route does (hash the bearer token the way the service does, look it up in a process
 * Map, count the request in the service's own rate-limit store, set X-RateLimit headers), one
 * measuring function (autocannon + server CPU per request) and the report with both ratios and a
 * verdict per target.
 *
 *   BENCH_DIST=/tmp/wt-before/dist node bench/auth-me.bench.js   serves an older build
 *   BENCH_ROUNDS=3 (default): rounds of every side, alternated; each figure is the median of its rounds
 */
const { createHash } = require('node:crypto');
const { join, resolve } = require('node:path');
const { cpuAtRest, cpuOf, cpuPerRequest } = require('./server-cpu');

/** The dist directory every require of the built service goes through (default <repo>/dist). */
const DIST = resolve(process.env.BENCH_DIST ?? join(__dirname, '..', 'dist'));
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
/** Rounds of every side, alternated: one side measured once drifts with the machine (a VM's neighbours). */
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));

/** `require` of a built module, by its path under dist (e.g. 'libs/identity/src'). */
const built = (rel) => require(join(DIST, rel));

/** One export of a built module, or `undefined` when this build does not have it (an older build). */
function builtExport(rel, name) {
  try {
    return built(rel)[name];
  } catch {
    return undefined;
  }
}

/** The service's token hash (identity's `hashToken`); the same SHA-256 hex if a build lacks the export. */
function tokenHasher() {
  const hashToken = builtExport('libs/identity/src', 'hashToken');
  return typeof hashToken === 'function' ? hashToken : (plain) => createHash('sha256').update(plain).digest('hex');
}

/**
 * The rate-limit store the running service counts in: the instance the Nest app was given (memory,
 * or Redis when the configuration names REDIS_URL), so the same-work side pays the same
 * increment. Falls back to the platform's memory store, then to @nestjs/throttler's.
 */
function limiterStoreOf(app) {
  try {
    const { getStorageToken } = require('@nestjs/throttler');
    const storage = app.get(getStorageToken(), { strict: false });
    if (storage && typeof storage.increment === 'function') return storage;
  } catch {
    // an older build without the storage provider: below
  }
  const Memory = builtExport('libs/platform/src', 'MemoryRateLimitStorage');
  if (Memory) return new Memory();
  const { ThrottlerStorageService } = require('@nestjs/throttler');
  return new ThrottlerStorageService();
}

/**
 * What the service does for a protected route before its handler, written bare: the bearer
 * token hashed (as the service does) and looked up in a process Map, the permission checked, the
 * request counted in the limiter store of its tier (per token), X-RateLimit headers set. Answers
 * 401/403/429 itself and returns null then; else the principal.
 */
function bareAccess({ storage, tier, limit, ttl = 60_000, permission }) {
  const hashToken = tokenHasher();
  const principals = new Map();
  const check = async (req, res) => {
    const header = req.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : null;
    const principal = token !== null && token.length <= 200 ? principals.get(hashToken(token)) : undefined;
    if (!principal) return refuse(res, 401, 'Unauthenticated.');
    const key = `bench-same:${tier}:t:${principal.hash.slice(0, 32)}`;
    const { totalHits, isBlocked } = await storage.increment(key, ttl, limit, ttl, tier);
    res.setHeader('X-RateLimit-Limit', limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, limit - totalHits));
    if (isBlocked) return refuse(res, 429, 'Too many requests.');
    if (permission && !principal.permissions.includes(permission)) return refuse(res, 403, 'Forbidden.');
    return principal;
  };
  /** Registers a token with the principal a real /auth/me call answered for it. */
  check.add = (token, me) => {
    const hash = hashToken(token);
    principals.set(hash, { hash, id: me.id, name: me.name, role: me.role, permissions: me.permissions ?? [] });
  };
  return check;
}

function refuse(res, status, message) {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.end(JSON.stringify({ success: false, message }));
  return null;
}

/** Starts an Express app on a loopback port; resolves to the port. */
function listen(app) {
  return new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s.address().port));
  });
}

/**
 * The service on the embedded default as production builds it (NODE_ENV=production, SQLite in a
 * temporary folder, the bare demo set, info logs sent nowhere, a limit no bench reaches),
 * listening on a loopback port. Resolves to { app, config, base (.../api/v1), cashierToken, close }.
 */
async function startEmbeddedService() {
  require('reflect-metadata');
  const { mkdtempSync, rmSync } = require('node:fs');
  const { tmpdir } = require('node:os');
  const { createApiApp } = built('apps/api/src/bootstrap');
  const { loadConfig } = built('libs/platform/src');
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
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}/api/v1`;
  const cashierToken = (await call(`${base}/auth/login`, { method: 'POST', body: { email: 'cashier@example.com', password: 'password' } })).data.token;
  const close = async () => {
    await app.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  };
  return { app, config, base, cashierToken, close };
}

/** GET/POST through the service, JSON answer (throws on a status >= 300). */
async function call(url, { method = 'GET', token, body } = {}) {
  const headers = { 'content-type': 'application/json' };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/**
 * One side measured: a 2 s warm-up, then BENCH_DURATION s with the server's CPU read before and
 * after (us per request). `opts` are autocannon's (url, method, headers, body, requests...).
 */
async function measure(autocannon, child, opts, label) {
  const connections = opts.connections;
  await autocannon({ ...opts, connections, duration: 2 });
  const before = await cpuOf(child);
  const r = await autocannon({ ...opts, connections, duration: DURATION });
  const cpu = cpuPerRequest(before, await cpuOf(child), r.requests.total);
  if (r.non2xx > 0 || r.errors > 0) throw new Error(`${label ?? opts.url}: ${r.non2xx} non-2xx, ${r.errors} errors`);
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, cpu };
}

/**
 * Every side measured BENCH_ROUNDS times, the sides alternated within a round and the round's
 * first side rotated, so a slow spell of the machine falls on every side alike. Each side's
 * figures are the medians of its rounds (each figure on its own); `rounds` keeps every round's
 * figures, for the ratios round by round.
 */
async function measureSides(autocannon, child, sides, labels = []) {
  const rounds = [];
  for (let r = 0; r < ROUNDS; r++) {
    const round = new Array(sides.length);
    for (let k = 0; k < sides.length; k++) {
      const i = (r + k) % sides.length;
      round[i] = await measure(autocannon, child, sides[i], labels[i]);
    }
    rounds.push(round);
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const sideMedians = sides.map((_, i) => {
    const of = (k) => median(rounds.map((round) => round[i][k]));
    return { rps: of('rps'), p50: of('p50'), p99: of('p99'), cpu: of('cpu') };
  });
  return { sides: sideMedians, rounds };
}

/** The throughput ratio of side `a` to side `b` in every round: how far the medians can be trusted. */
function roundRatios(rounds, a, b) {
  return `rounds: ${rounds.map((round) => pct(round[a].rps, round[b].rps)).join(', ')}`;
}

/**
 * A first pass over every side before any is measured: the first traffic a fresh server child
 * sees pays for its start (the heap's first major collections, code not yet optimised), which
 * would otherwise be charged to whichever side is measured first.
 */
async function warmUp(autocannon, sides) {
  for (const opts of sides) await autocannon({ ...opts, duration: 2 });
}

const pct = (a, b) => `${((a / b) * 100).toFixed(1)}%`;
const times = (a, b) => `${(a / Math.max(b, 1e-9)).toFixed(2)}x`;

/** One side's line: req/s, p50, p99, server CPU us/request. */
function sideLine(label, m) {
  return `  ${label.padEnd(26)} ${m.rps.toFixed(0).padStart(7)} req/s   p50 ${String(m.p50).padStart(4)} ms   p99 ${String(m.p99).padStart(4)} ms   CPU ${m.cpu.toFixed(0).padStart(6)} us/req`;
}

/**
 * A row: the full service, the bare query (or route) and the bare server doing the same work,
 * then both throughput ratios, the p99 ratio and the CPU ratio against the same work.
 */
function printRow(name, { full, bare, same }, labels = {}) {
  console.log(name);
  console.log(sideLine(labels.full ?? 'full service', full));
  if (bare) console.log(sideLine(labels.bare ?? 'bare query', bare));
  console.log(sideLine(labels.same ?? 'bare, same work', same));
  const parts = [];
  if (bare) parts.push(`full/${labels.bareShort ?? 'bare query'} ${pct(full.rps, bare.rps)}`);
  parts.push(`full/same work ${pct(full.rps, same.rps)}`);
  parts.push(`p99 full/same ${times(full.p99, same.p99)}`);
  parts.push(`CPU full/same ${times(full.cpu, same.cpu)}`);
  console.log(`  ${parts.join(' | ')}`);
}

/**
 * The verdict of one target of issue 29: throughput ratio against its baseline at least `min`,
 * p99 at most `maxP99` times the baseline's, and (checkout) CPU a request at most `maxCpu` times.
 */
function verdict(name, full, base, { min, maxP99 = 2, maxCpu, against }) {
  const ratio = full.rps / base.rps;
  const p99 = full.p99 / Math.max(base.p99, 1e-9);
  const checks = [`${(ratio * 100).toFixed(1)}% of ${against} (>= ${(min * 100).toFixed(0)}%)`, `p99 ${p99.toFixed(2)}x (<= ${maxP99}x)`];
  let met = ratio >= min && p99 <= maxP99;
  if (maxCpu !== undefined) {
    const cpu = full.cpu / Math.max(base.cpu, 1e-9);
    checks.push(`CPU ${cpu.toFixed(2)}x (<= ${maxCpu}x)`);
    met = met && cpu <= maxCpu;
  }
  return `verdict ${name}: ${checks.join(', ')}: ${met ? 'MET' : 'NOT MET'}`;
}

/** The server child's Node arguments: BENCH_SERVER_NODE_ARGS, or --cpu-prof into BENCH_PROFILE. */
function serverExecArgv() {
  if (process.env.BENCH_SERVER_NODE_ARGS) return process.env.BENCH_SERVER_NODE_ARGS.split(' ');
  if (process.env.BENCH_PROFILE) return ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`];
  return process.execArgv;
}

/**
 * Forks `file serve` and resolves to its first message (the ports and tokens) once the child has
 * settled (a second), printing its CPU at rest (its background, counted in every side's CPU per
 * request). Its stdout is dropped unless BENCH_CHILD_STDOUT is set (e.g. with
 * BENCH_SERVER_NODE_ARGS=--trace-gc, whose lines go to stdout).
 */
function startServer(file) {
  const { fork } = require('node:child_process');
  const child = fork(file, ['serve'], {
    execArgv: serverExecArgv(),
    stdio: ['ignore', process.env.BENCH_CHILD_STDOUT ? 'inherit' : 'ignore', 'inherit', 'ipc'],
  });
  const ready = new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server exited ${code}`)));
  }).then(async (message) => {
    await cpuAtRest(child); // the tail of its start (JIT, caches filling): about 0.25 s CPU in the first second
    const rest = await cpuAtRest(child);
    console.log(`server child at rest: ${rest.toFixed(0)} us CPU per second (its background; included in each side's CPU per request)`);
    return message;
  });
  return { child, ready };
}

/** Ends the child with SIGTERM (an orderly exit: a --cpu-prof profile is written) and waits for it. */
async function stopServer(child) {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

module.exports = {
  DIST,
  DURATION,
  ROUNDS,
  measureSides,
  roundRatios,
  built,
  builtExport,
  tokenHasher,
  limiterStoreOf,
  bareAccess,
  listen,
  call,
  startEmbeddedService,
  measure,
  warmUp,
  printRow,
  sideLine,
  verdict,
  startServer,
  stopServer,
};
