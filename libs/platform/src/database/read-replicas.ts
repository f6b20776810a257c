import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { copyMethodMetadata } from 'nestjs-cls';
import { DataSource, EntityManager, QueryRunner } from 'typeorm';
import { AppConfig } from '../config';
import { AsyncFacet } from '../context/async-facet';
import { APP_CONFIG } from '../config/config.module';
import { isDatabaseUnavailable } from './db-errors';
import { mysqlPools } from './mysql-pools';

/** Where the queries of one read-only use case go. */
interface ReadScope {
  source: 'replica' | 'primary';
  /** The replica's query runner's manager (undefined: the primary). */
  manager?: EntityManager;
  /** The replica's data holds every commit of the primary before this moment (its last heartbeat). */
  asOf?: Date;
}
const scopes = new AsyncFacet<ReadScope>('read scope');

/** The replica's manager when the running use case reads on a replica (the transactional adapter asks). */
export function replicaManager(): EntityManager | undefined {
  return scopes.get()?.manager;
}

/**
 * How fresh the data read by the running use case is: a replica's last heartbeat (every commit
 * of the primary before it is there), or undefined on the primary (everything committed is).
 */
export function readAsOf(): Date | undefined {
  return scopes.get()?.asOf;
}

/** Runs `work` on the primary even inside a read-only use case (the one write it makes, e.g. a sync device's last download). */
export function onPrimary<T>(work: () => Promise<T>): Promise<T> {
  return scopes.run({ source: 'primary' }, work);
}

/**
 * The transactional adapter, aware of replica scopes: outside a transaction a repository's
 * `txHost.tx` is the replica's manager, and a transaction opened inside the scope (a read
 * snapshot, as a sync page takes) runs on the replica's connection. Everything else is unchanged:
 * a write use case opens its transaction on the primary as before.
 */
export function replicaAware<A extends TransactionalAdapterTypeOrm>(adapter: A): A {
  const base = adapter.optionsFactory;
  adapter.optionsFactory = (dataSource: DataSource) => {
    const options = base(dataSource);
    return {
      ...options,
      getFallbackInstance: () => replicaManager() ?? options.getFallbackInstance(),
      wrapWithTransaction: (txOptions, fn, setClient) => {
        const manager = replicaManager();
        if (!manager) return options.wrapWithTransaction(txOptions, fn, setClient);
        const inTx = (trx: EntityManager) => {
          setClient(trx);
          return fn();
        };
        return txOptions?.isolationLevel ? manager.transaction(txOptions.isolationLevel, inTx) : manager.transaction(inTx);
      },
    };
  };
  return adapter;
}

interface PooledConnection {
  query(sql: string, cb: (err: unknown, rows?: unknown) => void): unknown;
  release(): void;
  destroy(): void;
}
interface PoolCluster {
  getConnection(pattern: string, cb: (err: unknown, conn?: PooledConnection) => void): void;
}

/** What is known of one replica: measured at most every DB_READ_CHECK_INTERVAL_MS (failures: backing off). */
interface ReplicaState {
  id: string;
  index: number;
  checkedAt: number;
  /** When it is measured again. */
  retryAt: number;
  /** Checks failed in a row (down, frozen, no heartbeat): each doubles the wait before the next, up to 30 s. */
  failures: number;
  usable: boolean;
  lagSeconds: number | null;
  beatAt?: Date;
  why: string;
  probing: boolean;
}

const HEARTBEAT_MS = 1000;
/** A check (connection + heartbeat read) answers within this or the replica counts as down: no read waits a statement bound for it. */
const CHECK_MS = 1000;
const MAX_BACKOFF_MS = 30_000;

function checkTimeout(): Error {
  return Object.assign(new Error(`The read replica did not answer its check within ${CHECK_MS} ms.`), { code: 'REPLICA_CHECK_TIMEOUT' });
}

/**
 * Read replicas (DB_READ_HOSTS / DB_READ_URLS). `run(work)` runs a read-only use case's queries
 * on a replica that is up and no further behind than DB_READ_MAX_LAG_SECONDS, else on the primary:
 *
 * - Lag is a heartbeat (pt-heartbeat's idea): each process with replicas writes the primary's
 *   UTC time into `replica_heartbeat` every second; a replica's copy of that row, read on the very
 *   connection the use case then uses, says how far behind it is (its clock less the beat). It
 *   works the same on async replicas, semi-sync ones and Galera readers, needs no privilege, and a
 *   stopped replication thread shows as growing lag (Seconds_Behind_Master would be NULL).
 *   The answer is trusted for DB_READ_CHECK_INTERVAL_MS (1 s): one extra query a second per replica.
 * - A check answers within 1 s (connection and heartbeat read) or the replica counts as down, so a
 *   frozen replica costs one read a second at most, never a statement bound. A replica that is down
 *   or fails during a use case (connection lost, statement bound) is skipped, checked again after
 *   1, 2, 4... check intervals (up to 30 s); the failed use case runs again on the primary: it only
 *   reads, so running it twice is harmless. Clients see 2xx, not 5xx. One that answers but lags is
 *   checked again after one interval.
 * - Replica connections are `SET SESSION TRANSACTION READ ONLY`: a write that strays into a read
 *   scope fails loudly instead of landing on a replica.
 * - Inside a transaction (a write use case) nothing changes: its reads stay on the primary.
 */
@Injectable()
export class ReadReplicas implements OnModuleInit, OnApplicationBootstrap, OnModuleDestroy {
  /** The application's instance, for the decorator (as TransactionHost.getInstance() does for @Transactional). */
  private static current: ReadReplicas | undefined;
  private readonly logger = new Logger('ReadReplicas');
  private readonly replicas: ReplicaState[];
  private next = 0;
  private heartbeat?: NodeJS.Timeout;

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    const endpoints = config.db.type === 'mysql' ? config.db.readReplicas.endpoints : [];
    this.replicas = endpoints.map((_, i) => ({
      id: `SLAVE${i}`,
      index: i + 1,
      checkedAt: -Infinity,
      retryAt: 0,
      failures: 0,
      usable: false,
      lagSeconds: null,
      why: 'not checked yet',
      probing: false,
    }));
    ReadReplicas.current = this;
  }

  static instance(): ReadReplicas | undefined {
    return ReadReplicas.current;
  }

  get enabled(): boolean {
    return this.replicas.length > 0;
  }

  /** What each replica looked like at its last check (metrics, logs, tests). */
  snapshot(): { replica: number; usable: boolean; lagSeconds: number | null; why: string }[] {
    return this.replicas.map((r) => ({ replica: r.index, usable: r.usable, lagSeconds: r.lagSeconds, why: r.why }));
  }

  onModuleInit(): void {
    if (!this.enabled) return;
    for (const p of mysqlPools<{ on(e: 'connection', l: (c: PooledConnection) => void): unknown }>(this.db))
      if (p.role === 'replica') p.pool.on('connection', (c) => void c.query('SET SESSION TRANSACTION READ ONLY', () => undefined));
  }

  onApplicationBootstrap(): void {
    if (!this.enabled) return;
    const beat = () =>
      void this.db.query('UPDATE replica_heartbeat SET beat_at = UTC_TIMESTAMP(6) WHERE id = 1').catch((error: unknown) => {
        this.logger.debug({ err: error }, 'Replica heartbeat not written (primary unavailable?)');
      });
    beat();
    this.heartbeat = setInterval(beat, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  onModuleDestroy(): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (ReadReplicas.current === this) ReadReplicas.current = undefined;
  }

  /** Runs a read-only use case on a usable replica, else on the primary (see the class). */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (!this.enabled || scopes.get() || inTransaction()) return work();
    const lease = await this.acquire();
    if (!lease) return scopes.run({ source: 'primary' }, work);
    let failed: unknown;
    try {
      return await scopes.run({ source: 'replica', manager: lease.runner.manager, asOf: lease.replica.beatAt }, work);
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      failed = error;
    } finally {
      await lease.runner.release();
    }
    this.mark(lease.replica, false, null, `failed during a read (${errorCode(failed)})`, true);
    return scopes.run({ source: 'primary' }, work);
  }

  private async acquire(): Promise<{ replica: ReplicaState; runner: QueryRunner } | null> {
    const n = this.replicas.length;
    const start = this.next++ % n;
    for (let k = 0; k < n; k++) {
      const replica = this.replicas[(start + k) % n];
      const due = Date.now() >= replica.retryAt;
      if (replica.probing || (!due && !replica.usable)) continue;
      const runner = await this.tryReplica(replica, due);
      if (runner) return { replica, runner };
    }
    return null;
  }

  private async tryReplica(replica: ReplicaState, check: boolean): Promise<QueryRunner | null> {
    if (check) replica.probing = true;
    let conn: PooledConnection | undefined;
    try {
      conn = await this.connect(replica.id, check ? CHECK_MS : 0);
      if (check) await this.measure(replica, conn);
      if (!replica.usable) {
        conn.release();
        return null;
      }
      const runner = this.db.createQueryRunner('slave');
      // Hand the runner the connection just checked (TypeORM would pick any replica's).
      Object.assign(runner, { databaseConnection: conn, databaseConnectionPromise: Promise.resolve(conn) });
      return runner;
    } catch (error) {
      if (errorCode(error) !== 'REPLICA_CHECK_TIMEOUT') conn?.release(); // (a timed-out check destroyed it)
      this.mark(replica, false, null, `unreachable (${errorCode(error)})`, true);
      return null;
    } finally {
      if (check) replica.probing = false;
    }
  }

  private async measure(replica: ReplicaState, conn: PooledConnection): Promise<void> {
    const rows = await new Promise<{ beat_at: Date; lag_us: number | string | null }[]>((resolve, reject) => {
      const timer = setTimeout(() => {
        conn.destroy(); // frozen: closed, never handed out again
        reject(checkTimeout());
      }, CHECK_MS);
      conn.query('SELECT beat_at, TIMESTAMPDIFF(MICROSECOND, beat_at, UTC_TIMESTAMP(6)) AS lag_us FROM replica_heartbeat WHERE id = 1', (err, r) => {
        clearTimeout(timer);
        if (err) reject(err);
        else resolve(r as { beat_at: Date; lag_us: number | null }[]);
      });
    });
    const row = rows[0];
    if (!row || row.lag_us === null) return this.mark(replica, false, null, 'no heartbeat row', true);
    const lag = Math.max(0, Number(row.lag_us) / 1e6);
    const max = this.config.db.readReplicas.maxLagSeconds;
    replica.beatAt = row.beat_at instanceof Date ? row.beat_at : new Date(`${String(row.beat_at)}Z`);
    this.mark(replica, lag <= max, lag, lag <= max ? 'in bounds' : `lagging ${lag.toFixed(1)} s (bound ${max} s)`);
  }

  /** Records a check; `failed` (no answer, unlike a replica that answers but lags) backs off: 1, 2, 4... times the interval, up to 30 s. */
  private mark(replica: ReplicaState, usable: boolean, lag: number | null, why: string, failed = false): void {
    if (replica.usable !== usable || (replica.checkedAt === -Infinity && !usable)) {
      const message = `read replica ${replica.index}: ${usable ? 'reads go to it' : 'reads go to the primary'} (${why})`;
      if (usable) this.logger.log(message);
      else this.logger.warn(message);
    }
    const now = Date.now();
    const interval = this.config.db.readReplicas.checkIntervalMs;
    const failures = failed ? replica.failures + 1 : 0;
    const wait = failed ? Math.min(MAX_BACKOFF_MS, interval * 2 ** (failures - 1)) : interval;
    Object.assign(replica, { usable, lagSeconds: lag, why, checkedAt: now, retryAt: now + wait, failures });
  }

  /** A connection of that replica's pool; within `boundMs` when set (a connection that turns up later goes back). */
  private connect(id: string, boundMs: number): Promise<PooledConnection> {
    const cluster = (this.db.driver as unknown as { poolCluster?: PoolCluster }).poolCluster;
    if (!cluster) return Promise.reject(new Error('No pool cluster (read replicas configured without TypeORM replication?)'));
    return new Promise((resolve, reject) => {
      let late = false;
      const timer =
        boundMs > 0
          ? setTimeout(() => {
              late = true;
              reject(checkTimeout());
            }, boundMs)
          : undefined;
      cluster.getConnection(id, (err, conn) => {
        clearTimeout(timer);
        if (late) return conn?.release();
        if (err || !conn) reject(err ?? new Error('no connection'));
        else resolve(conn);
      });
    });
  }
}

/** A write use case's transaction is open here (none without a TransactionHost: a unit test, a bare script). */
function inTransaction(): boolean {
  try {
    return TransactionHost.getInstance<TransactionalAdapterTypeOrm>().isTransactionActive();
  } catch {
    return false;
  }
}

function errorCode(error: unknown): string {
  const e = error as { code?: unknown; errno?: unknown } | null;
  return typeof e?.code === 'string' ? e.code : typeof e?.errno === 'number' ? `errno ${e.errno}` : 'error';
}

/**
 * Marks a method, or every method of a class, as a read-only use case that may be answered from a
 * read replica within DB_READ_MAX_LAG_SECONDS (ReadReplicas.run). Put it on what a client reads
 * without having just written it (feeds, reports, sync downloads, catalog lookups), never on the
 * GET that follows a client's own write (a sale just rung, a return just made). Without replicas
 * it costs one function call.
 */
export function ReadOnReplica(): MethodDecorator & ClassDecorator {
  const wrap = (descriptor: PropertyDescriptor): PropertyDescriptor => {
    const original = descriptor.value as (...args: unknown[]) => unknown;
    descriptor.value = function (this: unknown, ...args: unknown[]) {
      const replicas = ReadReplicas.instance();
      if (!replicas?.enabled) return original.apply(this, args);
      return replicas.run(async () => original.apply(this, args));
    };
    copyMethodMetadata(original, descriptor.value as (...args: unknown[]) => unknown);
    // @nestjs/swagger finds a handler's parameters by its function's name: keep it, or the
    // document loses the route's path and query parameters (and their 400/404/422).
    Object.defineProperty(descriptor.value, 'name', { value: original.name });
    return descriptor;
  };
  return ((target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) return wrap(descriptor);
    const proto = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(proto)) {
      if (name === 'constructor') continue;
      const d = Object.getOwnPropertyDescriptor(proto, name);
      if (d && typeof d.value === 'function') Object.defineProperty(proto, name, wrap(d));
    }
    return undefined;
  }) as MethodDecorator & ClassDecorator;
}
