import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/** Well under SQLite's 32,766 bound parameters and MySQL's 65,535 placeholders. */
const MAX_PARAMETERS = 30_000;

/**
 * Rows of an entity written as plain multi-row INSERTs, in the ambient transaction of `em`; the
 * generated ids come back in row order. Each value goes through the driver's own conversion for
 * its column (`preparePersistentValue`: transformers, dates, booleans), exactly as TypeORM's
 * insert does, without building a query builder, a value expression per column per row and an
 * escaped copy of the statement each time: that was a third of the API's CPU in a checkout, all
 * of it spent while the sale's row locks were held.
 *
 * The columns written are those the first row defines (an undefined property takes the column's
 * default, as with TypeORM's insert); rows that do not all define the same ones are handed to
 * TypeORM's insert instead. Ids: MySQL gives the first id of a multi-row INSERT and the rest
 * follow it (consecutive under InnoDB's auto-increment lock modes for inserts of a known number
 * of rows; TypeORM relies on the same), SQLite returns them (RETURNING).
 */
export async function insertRows<E extends ObjectLiteral>(em: EntityManager, entity: EntityTarget<E>, rows: readonly Partial<E>[]): Promise<number[]> {
  if (!rows.length) return [];
  const meta = em.connection.getMetadata(entity);
  const driver = em.connection.driver;
  const generated = meta.primaryColumns.find((c) => c.isGenerated);
  const columns = meta.columns.filter((c) => !c.isGenerated && c.getEntityValue(rows[0]) !== undefined);
  const written = new Set(columns);
  const same = rows.every((row) => meta.columns.every((c) => c.isGenerated || (c.getEntityValue(row) !== undefined) === written.has(c)));
  if (!same || !columns.length) {
    const result = await em.getRepository(entity).insert(rows as never);
    return generated ? result.identifiers.map((id) => Number(id?.[generated.propertyName])) : [];
  }
  const sqlite = em.connection.options.type === 'better-sqlite3';
  const head = `INSERT INTO ${driver.escape(meta.tableName)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES `;
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
  const ids: number[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const part = rows.slice(start, start + perStatement);
    const params: unknown[] = [];
    for (const row of part) for (const c of columns) params.push(persistent(driver, c, row));
    const returning = sqlite && generated ? ` RETURNING ${driver.escape(generated.databaseName)}` : '';
    const result = (await em.query(head + part.map(() => tuple).join(', ') + returning, params)) as unknown;
    if (!generated) continue;
    if (sqlite) for (const r of result as Record<string, unknown>[]) ids.push(Number(r[generated.databaseName]));
    else {
      const first = Number((result as { insertId: number | string }).insertId);
      for (let i = 0; i < part.length; i++) ids.push(first + i);
    }
  }
  return ids;
}

function persistent(driver: EntityManager['connection']['driver'], column: ColumnMetadata, row: ObjectLiteral): unknown {
  const value: unknown = driver.preparePersistentValue(column.getEntityValue(row), column);
  return value === undefined ? null : value;
}
