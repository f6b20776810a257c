import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { DataSource, DataSourceOptions } from 'typeorm';
import { DatabaseConfig } from '../config';
import { MIGRATIONS } from './migrations';

/**
 * DataSource options for both drivers. Entities are registered by each bounded context
 * (autoLoadEntities); migrations are an explicit, ordered list so the compiled service and the
 * test runner load exactly the same history.
 */
export function dataSourceOptions(db: DatabaseConfig, entities: DataSourceOptions['entities'] = []): DataSourceOptions {
  const common = {
    entities,
    migrations: MIGRATIONS,
    migrationsTableName: 'migrations',
    synchronize: false,
    logging: db.logging,
  } as const;
  if (db.type === 'sqlite') {
    if (db.sqlitePath !== ':memory:') mkdirSync(dirname(db.sqlitePath), { recursive: true });
    return {
      ...common,
      type: 'better-sqlite3',
      database: db.sqlitePath,
      // WAL lets readers go on while a writer commits; NORMAL sync is safe with WAL.
      prepareDatabase: (conn: { pragma(sql: string): unknown }) => {
        conn.pragma('journal_mode = WAL');
        conn.pragma('synchronous = NORMAL');
        conn.pragma('foreign_keys = ON');
        conn.pragma('busy_timeout = 5000');
      },
    };
  }
  return {
    ...common,
    type: 'mysql',
    ...mysqlEndpoints(db),
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectTimeout: db.connectTimeoutMs,
    // Acquire and statement bounds: db-timeouts.ts (mysql2's pool has no acquire timeout).
    extra: { connectionLimit: db.poolSize, connectTimeout: db.connectTimeoutMs },
  };
}

/**
 * One pool, or (read replicas configured) TypeORM replication: a mysql2 PoolCluster with the
 * primary as MASTER and each replica as SLAVE<i>. Nothing goes to a replica by itself
 * (`defaultMode: 'master'`, even for TypeORM's own find/select queries): only use cases run through
 * ReadReplicas (read-replicas.ts) read there, so read-your-writes holds everywhere else. The cluster
 * never drops or retries a node on its own (mysql2 would remove a node for good after 5 errors,
 * the primary included): ReadReplicas decides when a replica is down or lagging.
 */
function mysqlEndpoints(db: DatabaseConfig) {
  const primary = db.url ? { url: db.url } : { host: db.host, port: db.port, username: db.username, password: db.password, database: db.database };
  const replicas = db.readReplicas.endpoints;
  if (replicas.length === 0) return primary;
  // host[:port] replicas use the primary's credentials and database (from DATABASE_URL when set)
  const u = db.url ? new URL(db.url) : undefined;
  const same = u
    ? { username: decodeURIComponent(u.username), password: decodeURIComponent(u.password), database: decodeURIComponent(u.pathname.slice(1)) }
    : { username: db.username, password: db.password, database: db.database };
  return {
    replication: {
      master: primary,
      slaves: replicas.map((r) => ('url' in r ? { url: r.url } : { host: r.host, port: r.port, ...same })),
      canRetry: false,
      removeNodeErrorCount: Number.MAX_SAFE_INTEGER,
      restoreNodeTimeout: 1000,
      defaultMode: 'master' as const,
    },
  };
}

export function createDataSource(db: DatabaseConfig, entities: DataSourceOptions['entities'] = []): DataSource {
  return new DataSource(dataSourceOptions(db, entities));
}
