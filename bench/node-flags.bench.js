/**
 * Node's own settings for the API (garbage collector sizes and the like), measured on the service
 * alone: one server child per variant, each the embedded service as production builds it
 * (startEmbeddedService), started with the variant's Node flags. The first variant is always Node's
 * defaults; BENCH_NODE_FLAGS adds others, separated by ';' (flags within one by spaces).
 *
 * Each round sends BENCH_REQUESTS requests (autocannon, BENCH_CONNECTIONS) to BENCH_PATH on every
 * variant in turn, the order reversed every other round, so a slow spell of the machine falls on
 * every variant alike. Per variant it prints the medians of: server CPU a request (the steadier
 * figure on a shared machine), req/s, GC pause a request and scavenges (perf_hooks 'gc' entries in
 * the child), and how many paired rounds it spent less CPU than the defaults. No target: it tells
 * whether a setting pays before it goes into `npm start` or the image.
 *
 *   npm run bench:node-flags   (BENCH_NODE_FLAGS="--max-semi-space-size=32;--max-semi-space-size=64"
 *                               BENCH_ROUNDS=9 BENCH_REQUESTS=10000 BENCH_PATH=/auth/me)
 */
const { PerformanceObserver, constants } = require('node:perf_hooks');
const { fork } = require('node:child_process');
const { runAs } = require('./run-as');
const { answerCpu, askChild, cpuOf, cpuPerRequest } = require('./server-cpu');
const { startEmbeddedService } = require('./same-work');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 9));
const PATH = process.env.BENCH_PATH ?? '/auth/me';
const FLAG_SETS = ['', ...(process.env.BENCH_NODE_FLAGS ?? '--max-semi-space-size=64').split(';').map((f) => f.trim())];

async function serve() {
  const { base, cashierToken, close } = await startEmbeddedService();
  const gc = { ms: 0, scavenges: 0, all: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      gc.ms += e.duration;
      gc.all++;
      if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) gc.scavenges++;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('message', (m) => {
    if (m === 'gc') process.send({ gc: { ...gc } });
  });
  process.on('SIGTERM', async () => {
    await close();
    process.exit(0);
  });
  answerCpu();
  process.send({ base, token: cashierToken });
}

const gcOf = (child) => askChild(child, 'gc', 'gc');

async function startVariant(flags) {
  const child = fork(__filename, ['serve'], { execArgv: flags ? flags.split(/\s+/) : [], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const ready = await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`server (${flags || 'defaults'}) exited ${code}`)));
  });
  return { flags: flags || "Node's defaults", child, ...ready, cpu: [], rps: [], gcMs: [], scavenges: [] };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const autocannon = require('autocannon');
  const variants = [];
  try {
    for (const flags of FLAG_SETS) variants.push(await startVariant(flags));
    const run = (v, amount) => autocannon({ url: `${v.base}${PATH}`, connections: CONNECTIONS, amount, headers: { authorization: `Bearer ${v.token}` } });
    for (const v of variants) await run(v, Math.min(REQUESTS, 5_000)); // warm-up: JIT, caches
    for (let r = 0; r < ROUNDS; r++) {
      for (const v of r % 2 ? [...variants].reverse() : variants) {
        const [cpu0, gc0] = [await cpuOf(v.child), await gcOf(v.child)];
        const result = await run(v, REQUESTS);
        const [cpu1, gc1] = [await cpuOf(v.child), await gcOf(v.child)];
        if (result.non2xx > 0 || result.errors > 0) throw new Error(`${v.flags}: ${result.non2xx} non-2xx, ${result.errors} errors`);
        const served = result.requests.total;
        v.cpu.push(cpuPerRequest(cpu0, cpu1, served));
        v.rps.push(result.requests.average);
        v.gcMs.push(((gc1.ms - gc0.ms) * 1000) / served);
        v.scavenges.push(((gc1.scavenges - gc0.scavenges) * 20_000) / served);
      }
    }
    console.log(`GET /api/v1${PATH}, the service alone, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${REQUESTS} requests a variant (medians)`);
    const base = variants[0];
    for (const v of variants) {
      const lower = v.cpu.filter((c, i) => c < base.cpu[i]).length;
      const vsBase =
        v === base ? '' : ` | CPU ${((median(v.cpu) / median(base.cpu)) * 100).toFixed(1)}% of the defaults, lower in ${lower} of ${ROUNDS} rounds`;
      console.log(
        `  ${v.flags.padEnd(32)} CPU ${median(v.cpu).toFixed(0).padStart(5)} us/req  ${median(v.rps).toFixed(0).padStart(6)} req/s  GC ${median(v.gcMs).toFixed(1).padStart(5)} us/req  ${median(v.scavenges).toFixed(0).padStart(4)} scavenges per 20,000${vsBase}`,
      );
      console.log(`  ${''.padEnd(32)} CPU rounds: ${v.cpu.map((c) => c.toFixed(0)).join(', ')}`);
    }
  } finally {
    await Promise.all(
      variants.map(
        (v) =>
          new Promise((resolve) => {
            if (v.child.exitCode !== null) return resolve();
            v.child.once('exit', resolve);
            v.child.kill('SIGTERM');
          }),
      ),
    );
  }
}

runAs(serve, main);
