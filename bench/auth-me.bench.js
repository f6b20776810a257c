/**
 * GET /api/v1/auth/me through the whole stack (rate limit, bearer auth, ability + permission,
 * validation, envelope, pino request log) next to two bare Express servers in the same child:
 *   - bare route: answers the JSON, nothing else (the gap);
 *   - same work: reads `Authorization: Bearer`, hashes the token as the service does (identity's
 *     hashToken), looks the hash up in a process Map (filled from the token the bench logged in
 *     with), counts the request in the service's own rate-limit store (memory, or Redis when the
 *     configuration has REDIS_URL), sets X-RateLimit headers and answers the envelope a real
 *     /auth/me call answered (the limit of what the stack can reach);
 * and a minimal Nest application doing that same work (nest-same-work.js): the framework's own
 * ceiling, so the figures tell how much of the gap is Nest and how much the service's pipeline.
 * autocannon runs in this process. Prints req/s, p50, p99, server CPU per request of each side,
 * both ratios and the verdict of issue 29's target (>= 70% of same work, p99 <= 2x).
 *
 *   npm run bench:auth   (BENCH_DURATION=10 BENCH_CONNECTIONS=50 LOG_LEVEL=info BENCH_DIST=<repo>/dist
 *                         BENCH_PROFILE=<dir>: --cpu-prof of the server child)
 */
const { runAs } = require('./run-as');
const { answerCpu } = require('./server-cpu');
const {
  DIST,
  DURATION,
  ROUNDS,
  limiterStoreOf,
  bareAccess,
  listen,
  call,
  startEmbeddedService,
  measureSides,
  roundRatios,
  warmUp,
  printRow,
  sideLine,
  verdict,
  startServer,
  stopServer,
} = require('./same-work');

const { nestSameWork } = require('./nest-same-work');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

async function serve() {
  const express = require('express');
  const { app, config, base, cashierToken: token, close } = await startEmbeddedService();
  const meBody = await call(`${base}/auth/me`, { token });

  // The gap: a route that answers the same JSON and does nothing else.
  const bare = express();
  bare.get('/api/v1/auth/me', (_req, res) => res.json(meBody));

  // The same work, bare: token hash + Map lookup, the limiter's count, headers, the envelope.
  const access = bareAccess({ storage: limiterStoreOf(app), tier: 'standard', limit: config.rateLimit.standard });
  access.add(token, meBody.data);
  const same = express();
  same.get('/api/v1/auth/me', async (req, res) => {
    if (!(await access(req, res))) return;
    res.json(meBody);
  });

  const nest = await nestSameWork({ access, body: meBody, path: 'api/v1/auth/me' });
  const ports = { full: base, bare: await listen(bare), same: await listen(same), nest, token };
  // An orderly exit on SIGTERM, so a --cpu-prof profile is written.
  process.on('SIGTERM', async () => {
    await close();
    process.exit(0);
  });
  answerCpu();
  process.send(ports);
}

async function main() {
  const autocannon = require('autocannon');
  const { child, ready } = startServer(__filename);
  const s = await ready;
  const at = (port) => ({ url: `http://127.0.0.1:${port}/api/v1/auth/me`, connections: CONNECTIONS });
  const auth = { authorization: `Bearer ${s.token}` };
  const sides = [
    at(s.bare),
    { ...at(s.same), headers: auth },
    { url: `${s.full}/auth/me`, headers: auth, connections: CONNECTIONS },
    { ...at(s.nest), headers: auth },
  ];
  try {
    await warmUp(autocannon, sides);
    const measured = await measureSides(autocannon, child, sides);
    const [bare, same, full, nest] = measured.sides;
    console.log(
      `GET /api/v1/auth/me, ${CONNECTIONS} connections, ${DURATION} s each, medians of ${ROUNDS} rounds, LOG_LEVEL=${process.env.LOG_LEVEL ?? 'info'}, dist ${DIST}`,
    );
    printRow('GET /auth/me', { full, bare, same }, { bare: 'bare Express route', bareShort: 'bare route', same: 'bare Express, same work' });
    console.log(`  full/same work ${roundRatios(measured.rounds, 2, 1)}`);
    // The framework's ceiling: a minimal Nest app doing the same work.
    console.log(sideLine('bare Nest, same work', nest));
    console.log(`  Nest/Express same work ${((nest.rps / same.rps) * 100).toFixed(1)}% (${roundRatios(measured.rounds, 3, 1)})`);
    console.log(
      `  full/Nest same work ${((full.rps / nest.rps) * 100).toFixed(1)}% (${roundRatios(measured.rounds, 2, 3)}) | CPU full/Nest ${(full.cpu / nest.cpu).toFixed(2)}x`,
    );
    console.log(verdict('auth/me', full, same, { min: 0.7, against: 'same work' }));
  } finally {
    await stopServer(child);
  }
}

runAs(serve, main);
