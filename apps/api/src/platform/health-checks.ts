import type { DataSource } from 'typeorm';
import type { RedisClient } from '@pos/platform';

/** One dependency's answer in /health and /health/ready. */
export type Check = { status: 'up' | 'down'; latency_ms?: number; error?: string };

/** How long a dependency may take to answer before it counts as down. */
const PROBE_TIMEOUT_MS = 2000;

/** The database (a read of a real table) and Redis when configured. */
export async function dependencyChecks(db: DataSource, redis?: RedisClient): Promise<Record<string, Check>> {
  const checks: Record<string, Check> = {};
  // A real table, not `SELECT 1`: a Galera node outside the primary component answers a
  // statement that reads no table but refuses every table read (1047, not ready).
  checks.database = await probe(() => db.query(`SELECT 1 FROM ${db.driver.escape(db.options.migrationsTableName ?? 'migrations')} LIMIT 1`));
  if (redis) checks.redis = await probe(() => redis.ping());
  return checks;
}

/** No migration pending; not asked of a database that does not answer. */
export async function migrationsCheck(db: DataSource, database: Check): Promise<Check> {
  if (database.status !== 'up') return { status: 'down', error: 'database unreachable' };
  return probe(async () => {
    if (await db.showMigrations()) throw new Error('pending');
  }, 'pending migrations');
}

async function probe(fn: () => Promise<unknown>, failure = 'unreachable'): Promise<Check> {
  const started = performance.now();
  try {
    await withTimeout(fn(), PROBE_TIMEOUT_MS);
    return { status: 'up', latency_ms: Math.round((performance.now() - started) * 10) / 10 };
  } catch {
    return { status: 'down', error: failure };
  }
}

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error('timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e as Error);
      },
    );
  });
}
