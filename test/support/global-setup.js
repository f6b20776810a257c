/**
 * Once per `jest` run: a directory for the run's template database (test/support/sqlite-template.ts).
 * The first e2e suite that needs it migrates and seeds it there; every suite then starts from a
 * copy, so no suite repeats the migrations and the demo seed. Workers inherit the variable.
 */
const { mkdtempSync, existsSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async function globalSetup() {
  if (process.env.POS_TEST_TEMPLATE_DIR) return; // a caller chose one (kept)
  const base = existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
  process.env.POS_TEST_TEMPLATE_DIR = mkdtempSync(join(base, 'pos-test-template-'));
  process.env.POS_TEST_TEMPLATE_OWNED = '1';
};
