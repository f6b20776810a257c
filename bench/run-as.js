/**
 * The one entry of every bench script that forks itself: `node x.bench.js serve` runs the server
 * side in the child, anything else the driver in the parent; an error ends the process with 1.
 */
function runAs(serve, main) {
  const run = process.argv[2] === 'serve' ? serve : main;
  run().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}

module.exports = { runAs };
