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

function cpuOf(child) {
  return new Promise((resolve) => {
    const on = (m) => {
      if (m && m.cpu) {
        child.off('message', on);
        resolve(m.cpu);
      }
    };
    child.on('message', on);
    child.send('cpu');
  });
}

/** Microseconds of server CPU (user + system) per request between two `cpuOf` readings. */
const cpuPerRequest = (before, after, requests) => (after.user - before.user + after.system - before.system) / Math.max(1, requests);

module.exports = { answerCpu, cpuOf, cpuPerRequest };
