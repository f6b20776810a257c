import type { AppConfig } from '@pos/platform';

export interface BootFacts {
  /** Migrations recorded as applied, and how many the code knows. */
  migrations: { applied: number; known: number };
  /** Routes Nest mapped. */
  routes: number;
}

function database(config: AppConfig): string {
  const db = config.db;
  if (db.type === 'sqlite') return `SQLite ${db.sqlitePath}`;
  const where = db.url ? 'DATABASE_URL' : `${db.host}:${db.port}/${db.database}`;
  const replicas = db.readReplicas.endpoints.length;
  return `MySQL ${where}${replicas ? ` + ${replicas} read replica(s)` : ''}`;
}

function queue(config: AppConfig): string {
  const redis = config.redis;
  if (!redis) return 'in-process queue (jobs run in this process)';
  const where = redis.mode === 'standalone' ? 'Redis' : `Redis ${redis.mode}`;
  return `BullMQ on ${where} (jobs run in workers: npm run start:worker)`;
}

/**
 * What a boot did, in a few lines (the route-by-route wiring is at debug): where it listens, the
 * database and how far it is migrated, the queue, and where the docs, dashboard and metrics are.
 */
export function bootSummary(config: AppConfig, facts: BootFacts): string[] {
  const base = `http://localhost:${config.port}`;
  const { applied, known } = facts.migrations;
  const pending = known - applied;
  const migrations = pending > 0 ? `${pending} of ${known} migrations pending (npm run migrate)` : `${known} migrations applied`;
  const links = [`${base}/api/v1`, config.openapi ? `docs ${base}/api/docs` : undefined, `dashboard ${base}/dashboard`];
  const metrics = !config.metrics.enabled ? 'off' : config.metrics.port ? `${config.metrics.host}:${config.metrics.port}/metrics` : `${base}/metrics`;
  return [
    `POS API (${config.env}) listening: ${links.filter(Boolean).join(' · ')}`,
    `Database: ${database(config)}, ${migrations}; ${queue(config)}`,
    `${facts.routes} routes; metrics ${metrics}; log level ${config.logLevel} (LOG_LEVEL=debug lists every route)`,
  ];
}
