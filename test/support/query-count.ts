import { DataSource } from 'typeorm';
import { RequestContext } from '@pos/platform';

/**
 * Counts the SQL statements the application sends through TypeORM (every query runner of both
 * drivers reports each statement to the data source's logger before running it). Transaction
 * control (BEGIN / START TRANSACTION / COMMIT / ROLLBACK) is counted too. Only statements sent
 * on behalf of an HTTP request (inside its RequestContext) count: the pollers that run on their
 * own timers (outbox relay, delivery and job sweeps) never land in a request's budget.
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
    if (RequestContext.get()) statements.push(query);
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
