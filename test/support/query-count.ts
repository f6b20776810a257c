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

/**
 * The settings of an app whose requests' statements are counted: the in-process outbox relay and
 * the delivery sweep poll on their own timers (kept out of the counted window), and the
 * per-process caches (tokens, reference data, pricing) are kept for 10 minutes, so a slow machine
 * that takes more than their 5 s between the warm-up and the counted request cannot add their
 * reloads to the count.
 */
export const COUNTED_APP_ENV: Record<string, string> = {
  WEBHOOK_RELAY_INTERVAL_MS: '600000',
  WEBHOOK_SWEEP_INTERVAL_MS: '3600000',
  REFERENCE_CACHE_TTL_MS: '600000',
  PRICING_CACHE_TTL_MS: '600000',
  AUTH_CACHE_TTL_MS: '600000',
};

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
