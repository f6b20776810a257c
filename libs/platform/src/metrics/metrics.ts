import { Global, Injectable, Module, Optional } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { DataSource } from 'typeorm';
import { JobQueue } from '../queue/job-definition';
import { utcDate } from '../database/columns';
import { mysqlPools, NamedPool } from '../database/mysql-pools';
import { ReadReplicas } from '../database/read-replicas';
import { WorkerLeases } from '../database/worker-leases';
import { transactionRetries } from '../database/transactional';

/** Prometheus exposition format (text 0.0.4). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/** One HTTP exchange, measured on the response's 'finish' (route: the matched template, never the raw URL). */
export interface HttpObservation {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/**
 * The process's Prometheus registry and its instruments. Counters and the request histogram
 * move on the hot path (one observe per request); everything that needs a query (queue depth,
 * outbox lag, pool usage) is read only when /metrics is scraped, through `collect` callbacks.
 * One registry per application instance (not prom-client's global one), so tests can start
 * several apps in one process.
 */
@Injectable()
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /** Read when scraped from whoever tracks the requests in flight (the API's edge; 0 in the worker). */
  private inFlightSource: () => number = () => 0;
  private readonly inFlight: Gauge = new Gauge({
    name: 'http_requests_in_flight',
    help: 'HTTP requests being served now',
    registers: [this.registry],
    collect: (): void => this.inFlight.set(this.inFlightSource()),
  });
  private readonly checkouts = new Counter({
    name: 'pos_checkouts_total',
    help: 'Sales recorded (online checkouts and offline uploads; replays not counted)',
    labelNames: ['mode', 'currency'] as const,
    registers: [this.registry],
  });
  /**
   * Integer minor units (cents; yen for JPY), so the sum stays exact: a float sum of major units
   * drifted (6701.159999999977). Per currency, since units of different currencies never add up.
   */
  private readonly checkoutAmountMinor = new Counter({
    name: 'pos_checkout_amount_minor_total',
    help: 'Total amount of recorded sales, in integer minor units of the sale currency (divide by 10^decimals of the currency)',
    labelNames: ['mode', 'currency'] as const,
    registers: [this.registry],
  });
  private readonly webhookAttempts = new Counter({
    name: 'pos_webhook_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome (delivered, retrying, failed)',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  constructor(
    private readonly queue: JobQueue,
    @InjectDataSource() private readonly db: DataSource,
    @Optional() private readonly leases?: WorkerLeases,
    @Optional() private readonly replicas?: ReadReplicas,
  ) {
    collectDefaultMetrics({ register: this.registry });
    this.scrapeTimeGauges();
  }

  observeHttp(o: HttpObservation): void {
    this.httpDuration.observe({ method: o.method, route: o.route, status: o.status }, o.seconds);
  }

  /** Where the in-flight gauge reads its value (nothing to do per request). */
  countInFlightWith(source: () => number): void {
    this.inFlightSource = source;
  }

  /** Called after the sale committed: never throws (prom-client refuses a negative increment). */
  saleRecorded(mode: 'online' | 'offline', currency: string, amountMinor: number): void {
    this.checkouts.inc({ mode, currency });
    if (Number.isSafeInteger(amountMinor) && amountMinor > 0) this.checkoutAmountMinor.inc({ mode, currency }, amountMinor);
  }

  webhookAttempt(outcome: 'delivered' | 'retrying' | 'failed'): void {
    this.webhookAttempts.inc({ outcome });
  }

  async text(): Promise<string> {
    return this.registry.metrics();
  }

  private scrapeTimeGauges(): void {
    const queue = this.queue;
    const db = this.db;
    const byQueue = (name: string, help: string, pick: 'waiting' | 'active' | 'delayed' | 'failed') =>
      new Gauge({
        name,
        help,
        labelNames: ['queue'] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const c of await queue.counts().catch(() => [])) this.set({ queue: c.queue }, c[pick]);
        },
      });
    byQueue('pos_queue_jobs_waiting', 'Jobs waiting in each queue', 'waiting');
    byQueue('pos_queue_jobs_active', 'Jobs running in each queue', 'active');
    byQueue('pos_queue_jobs_delayed', 'Jobs scheduled later (delays and retries) in each queue', 'delayed');
    byQueue('pos_queue_jobs_failed', 'Failed jobs in each queue (kept by BullMQ; since start in-process)', 'failed');
    new Gauge({
      name: 'pos_outbox_lag_seconds',
      help: 'Age of the oldest unpublished outbox event (0 when none)',
      registers: [this.registry],
      async collect() {
        this.set(await oldestUnpublishedAge(db));
      },
    });
    const replicas = this.replicas;
    new Gauge({
      name: 'pos_db_replica_usable',
      help: 'Read replicas (DB_READ_*) at their last check: 1 read, 0 skipped (down, failing or lagging beyond DB_READ_MAX_LAG_SECONDS)',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of replicas?.snapshot() ?? []) this.set({ replica: String(r.replica) }, r.usable ? 1 : 0);
      },
    });
    new Gauge({
      name: 'pos_db_replica_lag_seconds',
      help: 'Read replicas: lag measured at their last check (heartbeat); absent while unknown (down, not checked yet)',
      labelNames: ['replica'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const r of replicas?.snapshot() ?? []) if (r.lagSeconds !== null) this.set({ replica: String(r.replica) }, r.lagSeconds);
      },
    });
    new Counter({
      name: 'pos_db_transaction_retries_total',
      help: 'Transactions run again after a deadlock, lock wait timeout or (Galera) certification conflict',
      registers: [this.registry],
      collect() {
        this.reset();
        this.inc(transactionRetries());
      },
    });
    const leases = this.leases;
    new Gauge({
      name: 'pos_worker_lease_held',
      help: 'Worker leases this process has asked for (rollup-applier, outbox-relay): 1 held, 0 standing by',
      labelNames: ['name'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        for (const l of leases?.snapshot() ?? []) this.set({ name: l.name }, l.held ? 1 : 0);
      },
    });
    new Gauge({
      name: 'pos_db_pool_connections',
      help: 'Database pool connections by state (MySQL; absent on the embedded database); with read replicas per pool (pool: primary or replica, replica: its position in DB_READ_*)',
      labelNames: ['state', 'pool', 'replica'] as const,
      registers: [this.registry],
      collect() {
        this.reset();
        const pools = mysqlPoolsOf(db);
        for (const p of pools) {
          // One pool: the `state` label alone, as before replicas existed.
          const l = pools.length === 1 ? {} : p.role === 'primary' ? { pool: 'primary' } : { pool: 'replica', replica: String(p.index) };
          this.set({ ...l, state: 'total' }, p.pool._allConnections?.length ?? 0);
          this.set({ ...l, state: 'idle' }, p.pool._freeConnections?.length ?? 0);
          this.set({ ...l, state: 'queued_requests' }, p.pool._connectionQueue?.length ?? 0);
        }
      },
    });
  }
}

async function oldestUnpublishedAge(db: DataSource): Promise<number> {
  try {
    const rows = (await db.query('SELECT MIN(created_at) AS oldest FROM outbox_events WHERE published_at IS NULL')) as { oldest: string | Date | null }[];
    const oldest = rows[0]?.oldest;
    if (!oldest) return 0;
    const at = utcDate.from(oldest) as Date;
    return Number.isNaN(at.getTime()) ? 0 : Math.max(0, (Date.now() - at.getTime()) / 1000);
  } catch {
    return 0; // a scrape must not fail with the database: readiness reports that
  }
}

/** mysql2's pool keeps its connection lists in underscored fields; read them if they are there. */
interface Mysql2PoolShape {
  _allConnections?: { length: number };
  _freeConnections?: { length: number };
  _connectionQueue?: { length: number };
}

function mysqlPoolsOf(db: DataSource): NamedPool<Mysql2PoolShape>[] {
  try {
    return mysqlPools<Mysql2PoolShape>(db);
  } catch {
    return []; // a scrape never fails: the boot check (DatabaseTimeouts) already refused such a driver
  }
}

/** Global: any context may count what it does (checkouts, webhook attempts) without importing another. */
@Global()
@Module({ providers: [Metrics], exports: [Metrics] })
export class MetricsModule {}
