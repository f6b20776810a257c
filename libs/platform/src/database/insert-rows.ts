import { EntityManager, EntityTarget, ObjectLiteral, QueryRunner } from 'typeorm';
import { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';
import { EntityMetadata } from 'typeorm/metadata/EntityMetadata';
import { VersionUtils } from 'typeorm/util/VersionUtils';
import { runStatement } from './raw-statement';

/** Well under SQLite's 32,766 bound parameters and MySQL's 65,535 placeholders. */
const MAX_PARAMETERS = 30_000;

type Driver = EntityManager['connection']['driver'];

/**
 * Rows of an entity written as plain multi-row INSERTs, in the ambient transaction of `em`; the
 * generated ids come back in row order. Each value goes through the driver's own conversion for
 * its column (`preparePersistentValue`: transformers, dates, booleans), exactly as TypeORM's
 * insert does, without building a query builder, a value expression per column per row and an
 * escaped copy of the statement each time: that was a third of the API's CPU in a checkout, all
 * of it spent while the sale's row locks were held.
 *
 * The columns written are those a row defines (an undefined property takes the column's default,
 * as with TypeORM's insert); consecutive rows that define the same ones share a statement. A row
 * that defines none goes alone through TypeORM's insert (one row: its id is exact).
 *
 * Ids (issue 24): the server numbers a multi-row INSERT's rows `first, first + increment, ...`
 * where increment is the session's `auto_increment_increment`: 1 on one server, the cluster size
 * on Galera (wsrep_auto_increment_control), the group's on multi-primary replication. TypeORM's
 * own multi-row insert assumes 1, which is why it is not used for several rows. SQLite and
 * MariaDB 10.5+ return the ids (RETURNING): exact whatever the increment, and on Galera the
 * increment follows the cluster's size from one statement to the next (a node leaving turns 3
 * into 2 for every session), so it is not worth caching there. Elsewhere (MySQL) the increment
 * is read once per physical connection, on the raw connection, and kept (MySQL changes it only
 * on an explicit SET): no statement added to a checkout's budget after a connection's first.
 */
export async function insertRows<E extends ObjectLiteral>(em: EntityManager, entity: EntityTarget<E>, rows: readonly Partial<E>[]): Promise<number[]> {
  if (!rows.length) return [];
  const plan = planOf(em.connection.getMetadata(entity));
  const opened = Writer.open(em, plan.generated);
  const writer = opened instanceof Writer ? opened : await opened;
  try {
    const ids: number[] = [];
    for (const run of runsOfSameColumns(plan, rows)) {
      if (!run.shape.columns.length) {
        for (const row of run.rows) {
          const result = await writer.manager.getRepository(entity).insert(row as never);
          if (plan.generated) ids.push(Number(result.identifiers[0]?.[plan.generated.propertyName]));
        }
        continue;
      }
      const written = await writer.insert(plan, run.shape, run.rows);
      for (const id of written) ids.push(id);
    }
    return ids;
  } finally {
    if (writer.own) await writer.release();
  }
}

/** The columns one run of rows writes, and the text of its statement (kept per entity and set of columns). */
interface Shape {
  columns: ColumnMetadata[];
  head: string;
  tuple: string;
  perStatement: number;
}

/** What insertRows needs of an entity, worked out once per entity rather than per call. */
interface Plan {
  meta: EntityMetadata;
  generated: ColumnMetadata | undefined;
  /** The columns a row may write (not generated). */
  writable: ColumnMetadata[];
  /** Whether every writable column is a plain property of the row (no embedded): then `row[property]` is its value. */
  flat: boolean;
  shapes: Map<string, Shape>;
}

const plans = new WeakMap<EntityMetadata, Plan>();

function planOf(meta: EntityMetadata): Plan {
  let plan = plans.get(meta);
  if (!plan) {
    const writable = meta.columns.filter((c) => !c.isGenerated);
    plan = {
      meta,
      generated: meta.primaryColumns.find((c) => c.isGenerated),
      writable,
      flat: writable.every((c) => !c.embeddedMetadata && !c.relationMetadata),
      shapes: new Map(),
    };
    plans.set(meta, plan);
  }
  return plan;
}

/** A row's column value, as TypeORM reads it. */
function valueOf(plan: Plan, column: ColumnMetadata, row: ObjectLiteral): unknown {
  return plan.flat ? row[column.propertyName] : column.getEntityValue(row);
}

/** Consecutive rows defining the same columns, in row order (ids stay ascending in row order). */
function runsOfSameColumns<E extends ObjectLiteral>(plan: Plan, rows: readonly Partial<E>[]): { shape: Shape; rows: Partial<E>[] }[] {
  const runs: { shape: Shape; rows: Partial<E>[] }[] = [];
  for (const row of rows) {
    let signature = '';
    for (let i = 0; i < plan.writable.length; i++) if (valueOf(plan, plan.writable[i], row) !== undefined) signature += i + ',';
    const last = runs[runs.length - 1];
    if (last && last.shape === plan.shapes.get(signature)) last.rows.push(row);
    else runs.push({ shape: shapeOf(plan, signature, row), rows: [row] });
  }
  return runs;
}

function shapeOf(plan: Plan, signature: string, row: ObjectLiteral): Shape {
  let shape = plan.shapes.get(signature);
  if (!shape) {
    const columns = plan.writable.filter((c) => valueOf(plan, c, row) !== undefined);
    shape = {
      columns,
      head: '',
      tuple: `(${columns.map(() => '?').join(', ')})`,
      perStatement: Math.max(1, Math.floor(MAX_PARAMETERS / Math.max(1, columns.length))),
    };
    plan.shapes.set(signature, shape);
  }
  return shape;
}

/** What mysql2's pooled (callback) connection offers: enough to read a session variable. */
interface RawConnection {
  query(sql: string, cb: (err: unknown, rows?: Record<string, unknown>[]) => void): unknown;
}

/** `auto_increment_increment` per physical connection (MySQL only: see insertRows). */
const increments = new WeakMap<object, Promise<number>>();
/** The same, once answered. */
const incrementKnown = new WeakMap<object, number>();

function incrementOf(conn: RawConnection): Promise<number> {
  let known = increments.get(conn);
  if (!known) {
    known = new Promise<number>((resolve, reject) =>
      conn.query('SELECT @@session.auto_increment_increment AS inc', (err, rows) => (err ? reject(err as Error) : resolve(Number(rows?.[0]?.inc) || 1))),
    );
    void known.then((step) => incrementKnown.set(conn, step)).catch(() => undefined);
    increments.set(conn, known);
    known.catch(() => increments.delete(conn));
  }
  return known;
}

/** How ids come back: returned by the statement, or counted from the first with the increment. */
type IdSource = { kind: 'returning' } | { kind: 'increment'; step: number } | { kind: 'none' };

class Writer {
  private constructor(
    readonly manager: EntityManager,
    private readonly driver: Driver,
    private readonly generated: ColumnMetadata | undefined,
    private readonly ids: IdSource,
    readonly own?: QueryRunner,
  ) {}

  /**
   * The runner (hence the physical connection) the rows will be written on: the ambient one, or
   * one of its own. Once the server's answers are known (RETURNING, the connection's increment),
   * no promise is awaited here.
   */
  static open(em: EntityManager, generated: ColumnMetadata | undefined): Writer | Promise<Writer> {
    const driver = em.connection.driver;
    if (!generated) return new Writer(em, driver, generated, { kind: 'none' });
    if (em.connection.options.type === 'better-sqlite3') return new Writer(em, driver, generated, { kind: 'returning' });
    const returning = returningKnown.get(em.connection);
    if (returning === true) return new Writer(em, driver, generated, { kind: 'returning' });
    const conn = (em.queryRunner as { databaseConnection?: object } | undefined)?.databaseConnection;
    const step = returning === false && conn ? incrementKnown.get(conn) : undefined;
    if (step !== undefined) return new Writer(em.queryRunner!.manager, driver, generated, { kind: 'increment', step });
    return Writer.openSlowly(em, generated);
  }

  private static async openSlowly(em: EntityManager, generated: ColumnMetadata): Promise<Writer> {
    const driver = em.connection.driver;
    if (await answersReturning(em)) return new Writer(em, driver, generated, { kind: 'returning' });
    const own = em.queryRunner ? undefined : em.connection.createQueryRunner();
    const runner = em.queryRunner ?? own!;
    try {
      const conn = (await runner.connect()) as RawConnection;
      return new Writer(runner.manager, driver, generated, { kind: 'increment', step: await incrementOf(conn) }, own);
    } catch (error) {
      await own?.release();
      throw error;
    }
  }

  async insert<E extends ObjectLiteral>(plan: Plan, shape: Shape, rows: Partial<E>[]): Promise<number[]> {
    const driver = this.driver;
    const columns = shape.columns;
    if (!shape.head) shape.head = `INSERT INTO ${driver.escape(plan.meta.tableName)} (${columns.map((c) => driver.escape(c.databaseName)).join(', ')}) VALUES `;
    const returning = this.ids.kind === 'returning' ? ` RETURNING ${driver.escape(this.generated!.databaseName)}` : '';
    const ids: number[] = [];
    for (let start = 0; start < rows.length; start += shape.perStatement) {
      const part = rows.length <= shape.perStatement ? rows : rows.slice(start, start + shape.perStatement);
      const params: unknown[] = [];
      let sql = shape.head;
      for (let r = 0; r < part.length; r++) {
        sql += r === 0 ? shape.tuple : ', ' + shape.tuple;
        for (const c of columns) params.push(persistent(driver, c, valueOf(plan, c, part[r])));
      }
      const result = await runStatement(this.manager, sql + returning, params);
      if (this.ids.kind === 'returning') for (const r of result as Record<string, unknown>[]) ids.push(Number(r[this.generated!.databaseName]));
      else if (this.ids.kind === 'increment') {
        const first = Number((result as { insertId: number | string }).insertId);
        for (let i = 0; i < part.length; i++) ids.push(first + i * this.ids.step);
      }
    }
    return ids;
  }

  async release(): Promise<void> {
    await this.own?.release();
  }
}

/** Per data source: whether the server answers INSERT ... RETURNING (MariaDB 10.5+). */
const returningSupport = new WeakMap<object, Promise<boolean>>();
/** The same, once answered (what `open` reads without awaiting). */
const returningKnown = new WeakMap<object, boolean>();

/**
 * MariaDB answers INSERT ... RETURNING from 10.5. The server's own VERSION() says which server it
 * is ("10.11.19-MariaDB-..."); TypeORM keeps only its number (driver.version "10.11.19"), which
 * cannot tell MariaDB from MySQL, so it is read once per data source (one statement per process).
 */
function answersReturning(em: EntityManager): Promise<boolean> {
  const source = em.connection;
  let known = returningSupport.get(source);
  if (!known) {
    known = (source.query('SELECT VERSION() AS v') as Promise<{ v: string }[]>).then((rows) => isMariaDbWithReturning(String(rows[0]?.v ?? '')));
    returningSupport.set(source, known);
    const asked = known;
    asked.then(
      (answers) => {
        if (returningSupport.get(source) === asked) returningKnown.set(source, answers);
      },
      () => returningSupport.get(source) === asked && returningSupport.delete(source),
    );
  }
  return known;
}

/** Tests: take one path or the other on this data source (undefined: ask the server again). */
export function assumeInsertReturning(source: object, answers: boolean | undefined): void {
  returningKnown.delete(source);
  if (answers === undefined) returningSupport.delete(source);
  else {
    returningSupport.set(source, Promise.resolve(answers));
    returningKnown.set(source, answers);
  }
}

function isMariaDbWithReturning(version: string): boolean {
  return /mariadb/i.test(version) && VersionUtils.isGreaterOrEqual(version.replace(/^([\d.]+).*$/, '$1'), '10.5.0');
}

function persistent(driver: Driver, column: ColumnMetadata, raw: unknown): unknown {
  const value: unknown = driver.preparePersistentValue(raw, column);
  return value === undefined ? null : value;
}
