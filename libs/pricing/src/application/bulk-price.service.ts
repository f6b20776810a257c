import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { Clock, ForbiddenError, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { ItemCatalog, ItemService } from '@pos/catalog';
import {
  APP_CONFIG,
  AppConfig,
  AuditLog,
  ChangeLog,
  chunkRowsFor,
  defineJob,
  JobHandler,
  JobQueue,
  PeriodicScheduler,
  ProcessLifecycle,
  QueueName,
  Transactional,
  yieldToEventLoop,
} from '@pos/platform';
import { PricesBulkUpdated } from './pricing.events';
import { ActivePricingCache } from './active-pricing.cache';
import { StoreScopePolicy } from './store-scope.policy';
import { BulkJobRecord, PriceChangeRow, PricingRepository } from './pricing.ports';
import { ReferenceRepository } from './reference.ports';

export type PriceChange = PriceChangeRow;

/** The job carries only the job row's id; the changes stay in the database. */
export const BulkPricesJob = defineJob<{ jobId: number }>('pricing.bulk-prices', {
  queue: QueueName.Bulk,
  attempts: 3,
  backoffMs: 5000,
  keepCompletedSeconds: 24 * 3600,
});

/** Changes per transaction: 500 on MySQL, fewer on SQLite (chunkRowsFor). */
const CHUNK = 500;

/**
 * The deterministic queue id of a job row in its current state: queuing it again while that
 * entry waits or runs is a no-op. A job handed back at a chunk boundary (drain) continues under
 * an id naming how far it got, since the finished entry keeps the first id.
 */
export function bulkJobQueueId(job: Pick<BulkJobRecord, 'jobKey' | 'processed'>): string {
  return job.processed > 0 ? `bulk-prices-${job.jobKey}-resume-${job.processed}` : `bulk-prices-${job.jobKey}`;
}

/**
 * Bulk price changes (up to 10,000): every row is validated first (422 names each bad row),
 * then one queued job applies them in chunks (500 on MySQL, 100 on SQLite), one transaction
 * each, recording progress and giving the event loop back between chunks (yieldToEventLoop: on
 * the embedded default the job runs in the API process, and tills keep selling meanwhile);
 * the last chunk's transaction writes prices.bulk_updated to the outbox. Prices are absolute,
 * so a retry after a crash re-applies them harmlessly.
 */
@Injectable()
export class BulkPriceService implements OnModuleInit {
  private readonly logger = new Logger('BulkPrices');
  /** Changes per chunk, each its own transaction, the event loop given back between them. */
  readonly chunkSize: number;

  constructor(
    private readonly pricing: PricingRepository,
    private readonly reference: ReferenceRepository,
    private readonly catalog: ItemCatalog,
    private readonly itemAdmin: ItemService,
    private readonly queue: JobQueue,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly scheduler: PeriodicScheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly lifecycle: ProcessLifecycle,
    private readonly active: ActivePricingCache,
    private readonly scope: StoreScopePolicy,
  ) {
    this.chunkSize = chunkRowsFor(config.db.type, CHUNK);
  }

  onModuleInit(): void {
    const { sweepIntervalMs, staleMs } = this.config.bulkJobs;
    this.scheduler.register({
      name: 'pricing.bulk-jobs-sweep',
      everyMs: sweepIntervalMs,
      firstAfterMs: Math.min(sweepIntervalMs, 2000),
      run: async () => void (await this.sweep(sweepIntervalMs, staleMs)),
    });
  }

  async submit(principal: Principal, changes: PriceChange[]) {
    await this.validate(principal, changes);
    const job = await this.createJob(principal.userId, changes);
    // The row is the job: if Redis cannot take it now, the sweeper queues it again (never lost, never waited for).
    await this.queue.enqueue(BulkPricesJob, { jobId: job.id }, { jobId: bulkJobQueueId(job) }).catch((error: Error) => {
      this.logger.warn(`bulk price job ${job.id} stays queued in the database until the sweeper queues it again: ${error.message}`);
    });
    return this.view(job);
  }

  @Transactional()
  async createJob(userId: number, changes: PriceChange[]): Promise<BulkJobRecord> {
    const now = this.clock.now();
    const job = await this.pricing.createBulkJob({
      jobKey: randomUUID(),
      userId,
      status: 'queued',
      total: changes.length,
      processed: 0,
      failed: 0,
      payload: JSON.stringify(changes),
      result: null,
      startedAt: null,
      finishedAt: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.audit.record({
      action: 'prices.bulk_submitted',
      target: { type: 'bulk_price_job', id: job.id },
      after: { total: changes.length, item_ids: [...new Set(changes.map((c) => c.itemId))].slice(0, 100) },
    });
    return job;
  }

  async status(id: number) {
    const job = await this.pricing.bulkJob(id);
    if (!job) throw new NotFoundError('Bulk price job');
    return this.view(job);
  }

  /**
   * Applies a job's changes from its last committed chunk on (`processed`), so a retry, a
   * resumed run after a crash or a job handed back at a drain never starts over nor skips a
   * chunk. A job row that does not exist is an error (the queue and the database disagree:
   * loud, never "done"); after the last attempt the row is marked `failed` with the reason, its
   * applied chunks stay applied.
   */
  @JobHandler(BulkPricesJob)
  async run(payload: { jobId: number }, ctx: { attempt: number } = { attempt: 1 }): Promise<void> {
    const job = await this.pricing.bulkJob(payload.jobId);
    if (!job) throw new Error(`bulk price job ${payload.jobId} does not exist (queue entry without its database row)`);
    if (job.status === 'completed' || job.status === 'failed') return;
    try {
      const changes = JSON.parse(job.payload) as PriceChange[];
      // `processed` only ever counts committed chunks, whatever the status: a row handed back at a
      // drain is `queued` with its progress, and starting it over would re-apply (and overwrite
      // prices edited since) every chunk before it, so a deploy faster than the job never ends it.
      const from = Math.min(job.processed, changes.length);
      await this.markRunning(job, from);
      for (let start = from; start < changes.length; start += this.chunkSize) {
        const end = Math.min(changes.length, start + this.chunkSize);
        await this.applyChunk(job.id, changes.slice(start, end), end, end === changes.length ? changes : null);
        if (end === changes.length) break;
        if (this.lifecycle.draining) return await this.handBack(job, end);
        // What waited during the chunk is served now: in-process on SQLite nothing else runs meanwhile.
        await yieldToEventLoop();
      }
      this.logger.log(`bulk price job ${job.id}: ${changes.length} change(s) applied${from ? ` (resumed at ${from})` : ''}`);
    } catch (error) {
      if (ctx.attempt >= BulkPricesJob.attempts) await this.markFailed(job.id, error as Error);
      throw error;
    }
  }

  @Transactional()
  async markRunning(job: BulkJobRecord, processed: number): Promise<void> {
    const now = this.clock.now();
    await this.pricing.updateBulkJob(job.id, { status: 'running', startedAt: job.startedAt ?? now, processed, updatedAt: now });
  }

  /** Shutdown at a chunk boundary: the rest waits in the database (and the queue) for another worker. */
  private async handBack(job: BulkJobRecord, processed: number): Promise<void> {
    await this.pricing.updateBulkJob(job.id, { status: 'queued', processed, updatedAt: this.clock.now() });
    this.logger.log(`bulk price job ${job.id}: handed back at ${processed}/${job.total} (draining)`);
    await this.queue
      .enqueue(BulkPricesJob, { jobId: job.id }, { jobId: bulkJobQueueId({ jobKey: job.jobKey, processed }) })
      .catch((error: Error) => this.logger.warn(`bulk price job ${job.id} waits for the sweeper: ${error.message}`));
  }

  @Transactional()
  async markFailed(jobId: number, error: Error): Promise<void> {
    const now = this.clock.now();
    this.logger.error(`bulk price job ${jobId} failed after ${BulkPricesJob.attempts} attempts: ${error.message}`);
    await this.pricing.updateBulkJob(jobId, {
      status: 'failed',
      finishedAt: now,
      updatedAt: now,
      result: JSON.stringify({ error: error.message.slice(0, 500) }),
    });
  }

  /**
   * Queues again every job the queue may have lost (Redis restarted empty, a crash between the
   * commit and the enqueue, a worker killed mid-job): `queued` rows under their own
   * deterministic id (a no-op while that entry still waits), `running` rows without progress
   * for `staleMs` under an id of that stalled state (replicas sweeping at once queue it once).
   * Returns how many were queued.
   */
  async sweep(queuedForMs: number, staleMs: number): Promise<number> {
    const now = this.clock.now().getTime();
    const rows = await this.pricing.unfinishedBulkJobs(new Date(now - queuedForMs), new Date(now - staleMs), 100);
    for (const row of rows) {
      const jobId = row.status === 'running' ? `bulk-prices-${row.jobKey}-stale-${row.updatedAt.getTime()}` : bulkJobQueueId(row);
      await this.queue.enqueue(BulkPricesJob, { jobId: row.id }, { jobId });
    }
    if (rows.length) this.logger.log(`sweep: queued ${rows.length} unfinished bulk price job(s) again`);
    return rows.length;
  }

  @Transactional()
  async applyChunk(jobId: number, chunk: PriceChange[], processed: number, all: PriceChange[] | null): Promise<void> {
    const now = this.clock.now();
    // Base prices are the catalog's (its use case writes them); price-book entries are ours.
    await this.itemAdmin.setBasePrices(
      chunk.filter((c) => c.priceBookId === undefined).map((c) => ({ itemId: c.itemId, price: c.price })),
      now,
    );
    await this.reference.upsertPriceBookEntries(
      chunk
        .filter((c) => c.priceBookId !== undefined)
        .map((c) => ({ priceBookId: c.priceBookId!, itemId: c.itemId, price: c.price, minQuantity: c.minQuantity ?? 1 })),
      now,
    );
    if (chunk.some((c) => c.priceBookId !== undefined)) this.active.clear();
    const result = all
      ? {
          items_updated: all.filter((c) => c.priceBookId === undefined).length,
          price_book_entries_updated: all.filter((c) => c.priceBookId !== undefined).length,
        }
      : null;
    await this.pricing.updateBulkJob(jobId, {
      processed,
      updatedAt: now,
      ...(all ? { status: 'completed', finishedAt: now, result: JSON.stringify(result) } : {}),
    });
    if (all) await this.changes.event(PricesBulkUpdated, { job_id: jobId, total: all.length, ...result!, item_ids: [...new Set(all.map((c) => c.itemId))] });
  }

  /**
   * Every row, before anything is stored. Store scoping (StoreScopePolicy): a price book the
   * caller cannot see (another store's) is refused as an unknown one (422 on the row); one they
   * see that also applies in a store not theirs (or in every store, unless every store is theirs)
   * is a 403. Base prices (no price book) are the chain-wide catalog's, as on PUT /items/{id}.
   */
  private async validate(principal: Principal, changes: PriceChange[]): Promise<void> {
    const errors: Record<string, string[]> = {};
    const items = await this.catalog.existingIds([...new Set(changes.map((c) => c.itemId))]);
    const books = await this.reference.priceBookStores([...new Set(changes.map((c) => c.priceBookId).filter((b): b is number => b !== undefined))]);
    const seen = new Set<string>();
    changes.forEach((c, i) => {
      if (!items.has(c.itemId)) (errors[`changes.${i}.item_id`] ??= []).push('The selected item does not exist.');
      const stores = c.priceBookId === undefined ? undefined : books.get(c.priceBookId);
      if (c.priceBookId !== undefined && (!stores || !StoreScopePolicy.visible(principal, stores)))
        (errors[`changes.${i}.price_book_id`] ??= []).push('The selected price book does not exist.');
      const key = `${c.priceBookId ?? '-'}:${c.itemId}:${c.minQuantity ?? 1}`;
      if (seen.has(key)) (errors[`changes.${i}`] ??= []).push('The same price is changed twice in this request.');
      seen.add(key);
    });
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    for (const [bookId, stores] of books) {
      if (await this.scope.mayChange(principal, stores)) continue;
      const row = changes.findIndex((c) => c.priceBookId === bookId);
      throw new ForbiddenError(`changes.${row}.price_book_id: price book ${bookId} also applies in stores you do not have access to.`, 'store_forbidden');
    }
  }

  private view(job: BulkJobRecord) {
    return {
      job_id: job.id,
      status: job.status,
      total: job.total,
      processed: job.processed,
      failed: job.failed,
      progress: job.total ? Math.round((job.processed / job.total) * 100) : 100,
      result: job.result ? (JSON.parse(job.result) as unknown) : null,
      created_at: job.createdAt.toISOString(),
      started_at: job.startedAt?.toISOString() ?? null,
      finished_at: job.finishedAt?.toISOString() ?? null,
    };
  }
}
