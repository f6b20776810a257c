import { EntityManager, EntityTarget, ObjectLiteral } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * One read of a union: rows of `entity` whose `column` holds one of `values`. `columns` (database
 * names) limits what is read: the rows then hold only those properties and the id.
 */
export interface RawPart<E extends ObjectLiteral = ObjectLiteral> {
  entity: EntityTarget<E>;
  column: string;
  values: readonly number[];
  columns?: readonly string[];
}

/** The rows of each part, in the parts' order. */
export type RawPartRows<T extends readonly RawPart[]> = { [K in keyof T]: T[K] extends RawPart<infer E> ? E[] : never };

/**
 * Several reads by key as ONE statement (a UNION ALL), each row hydrated as its own entity's
 * would be (`selectRaw`). Every branch selects its part's number (`k`), its id (`o`) and then
 * slots: a slot holds columns of one normalized type only (a varchar, an int, a datetime...), a
 * part without a column of that type selecting NULL there, so the union's column types are each
 * part's own and the driver converts every value as it would in a statement of its own. Rows
 * come back grouped by part, in id order. Every entity read must have an `id` column.
 */
export function rawUnion(
  em: EntityManager,
  parts: readonly RawPart[],
): { sql: string; params: unknown[]; hydrate(rows: Record<string, unknown>[]): ObjectLiteral[][] } {
  const driver = em.connection.driver;
  const layouts = parts.map((part) => {
    const meta = em.connection.getMetadata(part.entity);
    const columns = meta.columns.filter((c) => c.databaseName !== 'id' && (!part.columns || part.columns.includes(c.databaseName)));
    const id = meta.columns.find((c) => c.databaseName === 'id');
    if (!id) throw new Error(`rawUnion: ${meta.tableName} has no id column`);
    return { meta, id, columns, types: columns.map((c) => slotType(driver, c)) };
  });
  // Slots: for each type, as many as the part with most columns of it needs.
  const slots: string[] = [];
  for (const l of layouts) {
    const used = new Map<string, number>();
    for (const t of l.types) {
      used.set(t, (used.get(t) ?? 0) + 1);
      if (slots.filter((s) => s === t).length < used.get(t)!) slots.push(t);
    }
  }
  const slotOf = layouts.map((l) => {
    const taken = new Set<number>();
    return l.types.map((t) => {
      const at = slots.findIndex((s, i) => s === t && !taken.has(i));
      taken.add(at);
      return at;
    });
  });
  const params: unknown[] = [];
  const branches = layouts.map((l, k) => {
    const select = slots.map((_, i) => {
      const c = slotOf[k].indexOf(i);
      return `${c < 0 ? 'NULL' : `t.${driver.escape(l.columns[c].databaseName)}`} AS s${i}`;
    });
    const values = parts[k].values;
    params.push(...values);
    const where = values.length ? `t.${driver.escape(parts[k].column)} IN (${values.map(() => '?').join(', ')})` : '1 = 0';
    return `SELECT ${k} AS k, t.id AS o${select.map((s) => `, ${s}`).join('')} FROM ${driver.escape(l.meta.tableName)} t WHERE ${where}`;
  });
  const hydrate = (rows: Record<string, unknown>[]): ObjectLiteral[][] => {
    const out: ObjectLiteral[][] = parts.map(() => []);
    for (const row of rows) {
      const k = Number(row.k);
      const l = layouts[k];
      const e: ObjectLiteral = { [l.id.propertyName]: hydratedValue(driver, row.o, l.id) };
      l.columns.forEach((c, i) => (e[c.propertyName] = hydratedValue(driver, row[`s${slotOf[k][i]}`], c)));
      out[k].push(e);
    }
    return out;
  };
  return { sql: `${branches.join(' UNION ALL ')} ORDER BY k, o`, params, hydrate };
}

/** A slot's type: the normalized type with its precision, scale and sign (a union of decimal(10,2) and decimal(12,4) would answer both with four places). */
function slotType(driver: EntityManager['connection']['driver'], c: ColumnMetadata): string {
  return [driver.normalizeType(c), c.precision ?? '', c.scale ?? '', c.unsigned ? 'u' : ''].join(':');
}

/** A column's value as an entity holds it: the driver's conversion (types, transformers); SQL NULL stays null. */
export function hydratedValue(driver: EntityManager['connection']['driver'], raw: unknown, c: ColumnMetadata): unknown {
  return raw === null || raw === undefined ? null : driver.prepareHydratedValue(raw, c);
}
