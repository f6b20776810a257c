/** Removes the run's template directory made by global-setup.js (and any suite copies left in it). */
const { rmSync } = require('node:fs');

module.exports = async function globalTeardown() {
  const dir = process.env.POS_TEST_TEMPLATE_DIR;
  if (dir && process.env.POS_TEST_TEMPLATE_OWNED === '1') rmSync(dir, { recursive: true, force: true });
};
