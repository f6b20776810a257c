/**
 * CPU time of the server process per request, next to req/s: on a shared two-core machine the
 * throughput of each side moves with whatever else runs (the database, the load generator, the
 * neighbours), while the CPU a request costs the server stays put, so it is the steadier figure
 * to compare. The bench's server child calls `answerCpu()`; the parent asks with `cpuOf(child)`
 * before and after a measurement and divides by the requests served.
 */
function answerCpu() {
  process.on('message', (m) => {
    if (m === 'cpu') process.send({ cpu: process.cpuUsage() });
  });
}

/** Sends `message` to a bench's server child and resolves to the `field` of its first reply that carries one. */
function askChild(child, message, field) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m && m[field]) {
        child.off('message', on);
        resolve(m[field]);
      }
    };
    child.on('message', on);
    child.send(message);
  });
}

const cpuOf = (child) => askChild(child, 'cpu', 'cpu');

/** Microseconds of server CPU (user + system) per request between two `cpuOf` readings. */
const cpuPerRequest = (before, after, requests) => (after.user - before.user + after.system - before.system) / Math.max(1, requests);

/**
 * The server's CPU at rest, microseconds per second over `ms` with no traffic: its background
 * (pollers, timers, GC) is counted in every side's CPU per request, more so at low rates, so the
 * benches print it once next to their figures.
 */
async function cpuAtRest(child, ms = 1000) {
  const before = await cpuOf(child);
  const started = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, ms));
  const after = await cpuOf(child);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return (after.user - before.user + after.system - before.system) / seconds;
}

module.exports = { answerCpu, askChild, cpuOf, cpuPerRequest, cpuAtRest };
