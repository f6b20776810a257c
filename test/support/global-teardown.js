/** Removes what global-setup.js made for the run: the template directory and, on MariaDB/MySQL, the template database. */
const { existsSync, rmSync } = require('node:fs');
const { basename, join } = require('node:path');

module.exports = async function globalTeardown() {
  const dir = process.env.POS_TEST_TEMPLATE_DIR;
  if (!dir || process.env.POS_TEST_TEMPLATE_OWNED !== '1') return;
  if (existsSync(join(dir, 'mysql.lock'))) {
    // the same name as test/support/mysql-template.ts gives it
    const name = `pos_e2e_tpl_${basename(dir).replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 64);
    const { createConnection } = require('mysql2/promise');
    const c = await createConnection({
      host: process.env.TEST_MYSQL_HOST ?? '127.0.0.1',
      port: Number(process.env.TEST_MYSQL_PORT ?? 3306),
      user: process.env.TEST_MYSQL_USER ?? 'root',
      password: process.env.TEST_MYSQL_PASSWORD ?? '',
    });
    await c.query(`DROP DATABASE IF EXISTS \`${name}\``);
    await c.end();
  }
  rmSync(dir, { recursive: true, force: true });
};
