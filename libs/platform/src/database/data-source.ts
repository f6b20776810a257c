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
    ...(db.url ? { url: db.url } : { host: db.host, port: db.port, username: db.username, password: db.password, database: db.database }),
    timezone: 'Z',
    charset: 'utf8mb4_unicode_ci',
    supportBigNumbers: true,
    bigNumberStrings: false,
    connectTimeout: db.connectTimeoutMs,
    // Acquire and statement bounds: db-timeouts.ts (mysql2's pool has no acquire timeout).
    extra: { connectionLimit: db.poolSize, connectTimeout: db.connectTimeoutMs },
  };
}

export function createDataSource(db: DatabaseConfig, entities: DataSourceOptions['entities'] = []): DataSource {
  return new DataSource(dataSourceOptions(db, entities));
}
