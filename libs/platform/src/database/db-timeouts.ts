import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config';
import { APP_CONFIG } from '../config/config.module';
import { BoundCap, writeDeadlineCap } from './write-deadline';
import { mysqlPools } from './mysql-pools';
import { limitTransactionAge } from './transactional';

/** What the bounds need of a mysql2 (callback) pool and its connections. */
type Callback = (err: unknown, ...rest: unknown[]) => void;
interface PooledConnection {
  query(...args: unknown[]): unknown;
  release(): void;
  destroy(): void;
}
interface MysqlPool {
  getConnection(cb: (err: unknown, conn?: PooledConnection) => void): void;
  on(event: 'connection', listener: (conn: PooledConnection) => void): unknown;
}

export interface DatabaseBounds {
  /** Longest wait for a pooled connection (0: unbounded). */
  acquireMs: number;
  /** Longest wait for one statement's answer (0: unbounded). */
  statementMs: number;
  /**
   * Per call, a shorter limit on both when there is one (write-deadline.ts: what is left of the
   * request's write deadline), with its own error; at 0 or below the call fails before it starts.
   */
  cap?: () => BoundCap | undefined;
}

/** The wait one call may take (0: unbounded) and the error past it: the bound, or the cap when shorter. */
function limitOf(boundMs: number, cap: BoundCap | undefined, bounded: () => Error): { ms: number; error: () => Error } {
  return cap && (boundMs <= 0 || cap.ms < boundMs) ? { ms: Math.max(1, cap.ms), error: cap.error } : { ms: boundMs, error: bounded };
}

const BOUNDED = Symbol('statement-bounded');

function boundError(code: 'DB_ACQUIRE_TIMEOUT' | 'DB_STATEMENT_TIMEOUT', message: string): Error {
  return Object.assign(new Error(message), { code });
}

/**
 * Bounds a mysql2 pool so that a frozen or unreachable database makes requests fail fast (503)
 * instead of hanging for the whole outage and committing after the client gave up:
 *
 * - acquire: mysql2 has no acquire timeout; a caller waiting longer than `acquireMs` for a
 *   connection gets DB_ACQUIRE_TIMEOUT (a connection that turns up later goes back to the pool).
 * - statement: a statement without an answer within `statementMs` fails with
 *   DB_STATEMENT_TIMEOUT and its connection is closed and dropped from the pool. Closing it is
 *   what rolls back: the server aborts the open transaction of a closed connection, and the
 *   ROLLBACK the caller then sends fails at once on the closed connection instead of queueing
 *   behind the frozen statement (mysql2's own `timeout` keeps the connection, so it would).
 *   A COMMIT in flight when the bound runs out may still commit once the server resumes: the
 *   client cannot know (idempotency keys make the retry safe; README "Operations").
 *
 * Connect time is bounded by mysql2's own `connectTimeout` (data-source.ts); on MariaDB the
 * server also stops a statement past the same bound (`max_statement_time`, set per connection).
 */
export function boundMysqlPool(pool: MysqlPool, bounds: DatabaseBounds): void {
  const getConnection = pool.getConnection.bind(pool);
  pool.getConnection = (cb) => {
    const cap = bounds.cap?.();
    if (cap && cap.ms <= 0) return void process.nextTick(cb, cap.error());
    const limit = limitOf(bounds.acquireMs, cap, () => boundError('DB_ACQUIRE_TIMEOUT', `No database connection within ${bounds.acquireMs} ms.`));
    let settled = false;
    const timer =
      limit.ms > 0
        ? setTimeout(() => {
            settled = true;
            cb(limit.error());
          }, limit.ms)
        : undefined;
    getConnection((err, conn) => {
      if (settled) {
        if (!err && conn) conn.release();
        return;
      }
      settled = true;
      clearTimeout(timer);
      if (!err && conn) boundStatements(conn, bounds.statementMs, bounds.cap);
      cb(err, conn);
    });
  };
  if (bounds.statementMs > 0) {
    const seconds = Math.max(1, Math.ceil(bounds.statementMs / 1000));
    // MariaDB only (MySQL refuses the variable: ignored). The client bound above holds anyway.
    pool.on('connection', (conn) => void conn.query(`SET SESSION max_statement_time = ${seconds}`, () => undefined));
  }
}

function boundStatements(conn: PooledConnection, statementMs: number, cap?: () => BoundCap | undefined): void {
  const tagged = conn as PooledConnection & { [BOUNDED]?: true };
  if ((statementMs <= 0 && !cap) || tagged[BOUNDED]) return;
  tagged[BOUNDED] = true;
  const query = conn.query.bind(conn);
  conn.query = (...args: unknown[]) => {
    const at = args.findIndex((a) => typeof a === 'function');
    if (at < 0) return query(...args); // streaming or promise use: not bounded here
    const callback = args[at] as Callback;
    const capped = cap?.();
    if (capped && capped.ms <= 0) {
      // Never sent (a COMMIT past the deadline included); closing rolls back what the connection holds.
      conn.destroy();
      return void process.nextTick(callback, capped.error());
    }
    const limit = limitOf(statementMs, capped, () => boundError('DB_STATEMENT_TIMEOUT', `The database did not answer within ${statementMs} ms.`));
    if (limit.ms <= 0) return query(...args);
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      conn.destroy();
      callback(limit.error());
    }, limit.ms);
    args[at] = (err: unknown, ...rest: unknown[]) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      callback(err, ...rest);
    };
    return query(...args);
  };
}

/** Applies the configured bounds to the application's MySQL pool once it exists. */
@Injectable()
export class DatabaseTimeouts implements OnModuleInit {
  private readonly logger = new Logger('Database');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    const settleMs = this.config.changeFeed.settleSeconds * 1000;
    // The horizon's proviso (transactional.ts). 2 s of the window are kept for what the bound does
    // not see: stamps cut to whole seconds (checkout, MySQL DATETIME) and the COMMIT itself. A
    // window under 5 s (tests) leaves writes little time: at least 0.5 s.
    limitTransactionAge(settleMs > 0 ? Math.max(500, settleMs - 2000) : 0);
    if (this.config.db.type !== 'mysql') return;
    // One pool, or with read replicas every pool of the cluster (primary and each replica).
    const pools = mysqlPools<MysqlPool>(this.dataSource);
    if (pools.length === 0) throw new Error('The MySQL driver has no pool to bound (TypeORM changed?)');
    const { acquireTimeoutMs: acquireMs, statementTimeoutMs: statementMs, connectTimeoutMs } = this.config.db;
    for (const { pool } of pools) boundMysqlPool(pool, { acquireMs, statementMs, cap: writeDeadlineCap });
    this.logger.log(
      `bounds (${pools.length} pool${pools.length > 1 ? 's' : ''}): connect ${connectTimeoutMs} ms, acquire ${acquireMs} ms, statement ${statementMs} ms`,
    );
  }
}
