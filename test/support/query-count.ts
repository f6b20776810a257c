import { DataSource } from 'typeorm';

/**
 * Counts the SQL statements the application sends through TypeORM (every query runner of both
 * drivers reports each statement to the data source's logger before running it). Transaction
 * control (BEGIN / START TRANSACTION / COMMIT / ROLLBACK) is counted too.
 */
export interface QueryCounter {
  readonly statements: string[];
  reset(): void;
  stop(): void;
}

export function countQueries(db: DataSource): QueryCounter {
  const logger = db.logger;
  const original = logger.logQuery;
  const statements: string[] = [];
  logger.logQuery = function (this: unknown, query, parameters, runner) {
    statements.push(query);
    return original.call(logger, query, parameters, runner);
  };
  return {
    statements,
    reset: () => {
      statements.length = 0;
    },
    stop: () => {
      logger.logQuery = original;
    },
  };
}
