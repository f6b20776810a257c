import { basename } from 'node:path';
import { createConnection } from 'mysql2/promise';
import { buildOnce, templateDir } from './sqlite-template';

export interface MysqlServer {
  host: string;
  port: number;
  user: string;
  password: string;
}

/** The run's template database on MariaDB/MySQL (dropped by global-teardown.js, which names it the same way). */
export const mysqlTemplateName = (dir: string): string => `pos_e2e_tpl_${basename(dir).replace(/[^A-Za-z0-9]/g, '')}`.slice(0, 64);

/**
 * Fills the (new, empty) database `name` with a copy of the run's migrated, seeded template,
 * building the template first if no suite has (build(db) boots the app on db and closes it).
 * Each table is recreated from SHOW CREATE TABLE (keys, foreign keys, AUTO_INCREMENT kept) and
 * filled with INSERT .. SELECT. False when there is no template directory (no global setup).
 */
export async function copyMysqlTemplate(server: MysqlServer, name: string, build: (db: string) => Promise<void>): Promise<boolean> {
  const dir = templateDir();
  if (!dir) return false;
  const template = mysqlTemplateName(dir);
  await buildOnce(dir, 'mysql', async () => {
    const c = await createConnection(server);
    await c.query(`CREATE DATABASE \`${template}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`);
    await c.end();
    await build(template);
  });
  const c = await createConnection({ ...server, database: name });
  try {
    await c.query('SET FOREIGN_KEY_CHECKS = 0');
    const [tables] = await c.query(
      "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name",
      [template],
    );
    for (const { t } of tables as { t: string }[]) {
      const [[created]] = (await c.query(`SHOW CREATE TABLE \`${template}\`.\`${t}\``)) as unknown as [Record<string, string>[]];
      await c.query(created['Create Table']);
      const [cols] = await c.query(
        "SELECT column_name AS c FROM information_schema.columns WHERE table_schema = ? AND table_name = ? AND extra NOT LIKE '%GENERATED%' ORDER BY ordinal_position",
        [template, t],
      );
      const list = (cols as { c: string }[]).map(({ c: col }) => `\`${col}\``).join(', ');
      await c.query(`INSERT INTO \`${t}\` (${list}) SELECT ${list} FROM \`${template}\`.\`${t}\``);
    }
  } finally {
    await c.end();
  }
  return true;
}
