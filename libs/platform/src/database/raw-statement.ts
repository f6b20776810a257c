import { EntityManager, QueryFailedError, QueryRunner } from 'typeorm';

/** What a mysql2 (callback) connection offers: a statement with its parameters. */
interface CallbackConnection {
  query(sql: string, params: unknown[], cb: (err: unknown, raw?: unknown) => void): unknown;
}

/** TypeORM's MySQL query runner, with the connection it holds once connected (a transaction's). */
type MysqlRunner = QueryRunner & { databaseConnection?: CallbackConnection };

/**
 * One statement in the ambient transaction of `em`, answered as `em.query` answers it (the
 * driver's raw result: rows, or MySQL's OK packet), and seen the same way: the data source's
 * logger is told of it first (what logs statements, and what the statement budgets count) and of
 * its failure, which is a `QueryFailedError` carrying the driver's error (its code and errno).
 *
 * On MySQL inside a transaction, the statement goes straight to the connection the transaction
 * holds: TypeORM's `query` around it (an async connect, the BeforeQuery and AfterQuery broadcasts
 * to no subscriber, a structured result copied and dropped) made about ten promises a statement,
 * each one paid again by every AsyncLocalStorage of the process (a checkout's records: a tenth of
 * its promises). Anywhere else (SQLite, no transaction, entity subscribers listening to queries,
 * a slow-query threshold to log) it is `em.query` itself.
 */
export function runStatement<T = unknown>(em: EntityManager, sql: string, params: unknown[]): Promise<T> {
  const runner = em.queryRunner as MysqlRunner | undefined;
  const conn = runner?.databaseConnection;
  const source = em.connection;
  if (!runner || !conn || runner.isReleased || source.options.type !== 'mysql' || source.subscribers.length || source.options.maxQueryExecutionTime) {
    return em.query(sql, params) as Promise<T>;
  }
  source.logger.logQuery(sql, params, runner);
  return new Promise<T>((resolve, reject) => {
    conn.query(sql, params, (err, raw) => {
      if (!err) return resolve(raw as T);
      source.logger.logQueryError(err as Error, sql, params, runner);
      reject(new QueryFailedError(sql, params, err as Error));
    });
  });
}
