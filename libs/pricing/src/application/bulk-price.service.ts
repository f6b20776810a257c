import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { Transactional } from '@nestjs-cls/transactional';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { DataSource } from 'typeorm';
import { Clock, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { ChangeLog, defineJob, JobHandler, JobQueue, QueueName } from '@pos/platform';
import { BulkPriceJobEntity } from '../infrastructure/pricing.entities';

export interface PriceChange {
  itemId: number;
  price: number;
  priceBookId?: number;
  minQuantity?: number;
}

/** The job carries only the job row's id; the changes stay in the database. */
export const BulkPricesJob = defineJob<{ jobId: number }>('pricing.bulk-prices', { queue: QueueName.Bulk, attempts: 3, backoffMs: 5000, keepCompletedSeconds: 24 * 3600 });

const CHUNK = 500;

/**
 * Bulk price changes (up to 10,000): every row is validated first (422 names each bad row),
 * then one queued job applies them in chunks, recording progress; the last chunk's transaction
 * writes prices.bulk_updated to the outbox. Re-running a job re-applies the same absolute
 * prices, so a retry after a crash is harmless.
 */
@Injectable()
export class BulkPriceService {
  private readonly logger = new Logger('BulkPrices');

  constructor(
    private readonly tx: TransactionHost<TransactionalAdapterTypeOrm>,
    @InjectDataSource() private readonly db: DataSource,
    private readonly queue: JobQueue,
    private readonly changes: ChangeLog,
    private readonly clock: Clock,
  ) {}

  async submit(principal: Principal, changes: PriceChange[]) {
    await this.validate(changes);
    const now = this.clock.now();
    const job = await this.createJob(principal.userId, changes, now);
    await this.queue.enqueue(BulkPricesJob, { jobId: job.id }, { jobId: `bulk-prices-${job.jobKey}` });
    return this.view(job);
  }

  @Transactional()
  private async createJob(userId: number, changes: PriceChange[], now: Date): Promise<BulkPriceJobEntity> {
    const repo = this.tx.tx.getRepository(BulkPriceJobEntity);
    return repo.save(repo.create({ jobKey: randomUUID(), userId, status: 'queued', total: changes.length, processed: 0, failed: 0, payload: JSON.stringify(changes), result: null, startedAt: null, finishedAt: null, createdAt: now, updatedAt: now }));
  }

  async status(id: number) {
    const job = await this.db.getRepository(BulkPriceJobEntity).findOneBy({ id });
    if (!job) throw new NotFoundError('Bulk price job');
    return this.view(job);
  }

  @JobHandler(BulkPricesJob)
  async run(payload: { jobId: number }): Promise<void> {
    const repo = this.db.getRepository(BulkPriceJobEntity);
    const job = await repo.findOneBy({ id: payload.jobId });
    if (!job || job.status === 'completed') return;
    const changes = JSON.parse(job.payload) as PriceChange[];
    await repo.update({ id: job.id }, { status: 'running', startedAt: job.startedAt ?? this.clock.now(), processed: 0, updatedAt: this.clock.now() });
    for (let start = 0; start < changes.length; start += CHUNK) {
      const last = start + CHUNK >= changes.length;
      await this.applyChunk(job.id, changes.slice(start, start + CHUNK), Math.min(changes.length, start + CHUNK), last ? changes : null);
    }
    this.logger.log(`bulk price job ${job.id}: ${changes.length} change(s) applied`);
  }

  @Transactional()
  private async applyChunk(jobId: number, chunk: PriceChange[], processed: number, all: PriceChange[] | null): Promise<void> {
    const em = this.tx.tx;
    const now = this.clock.now();
    const toDb = (d: Date) => (em.connection.options.type === 'better-sqlite3' ? d.toISOString().replace('T', ' ').replace('Z', '') : d);
    for (const c of chunk) {
      if (c.priceBookId === undefined) {
        await em.query('UPDATE items SET base_price = ?, updated_at = ? WHERE id = ?', [c.price, toDb(now), c.itemId]);
      } else {
        const minQ = c.minQuantity ?? 1;
        const [entry] = (await em.query('SELECT id FROM price_book_entries WHERE price_book_id = ? AND item_id = ? AND min_quantity = ?', [c.priceBookId, c.itemId, minQ])) as { id: number }[];
        if (entry) {
          await em.query('UPDATE price_book_entries SET price = ?, updated_at = ? WHERE id = ?', [c.price, toDb(now), entry.id]);
        } else {
          await em.query('INSERT INTO price_book_entries (price_book_id, item_id, price, min_quantity, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [c.priceBookId, c.itemId, c.price, minQ, toDb(now), toDb(now)]);
        }
        await em.query('UPDATE price_books SET updated_at = ? WHERE id = ?', [toDb(now), c.priceBookId]);
      }
    }
    const done = all !== null;
    const result = done ? { items_updated: all.filter((c) => c.priceBookId === undefined).length, price_book_entries_updated: all.filter((c) => c.priceBookId !== undefined).length } : null;
    await em.getRepository(BulkPriceJobEntity).update({ id: jobId }, { processed, updatedAt: now, ...(done ? { status: 'completed', finishedAt: now, result: JSON.stringify(result) } : {}) });
    if (done) await this.changes.event('prices.bulk_updated', { job_id: jobId, total: all.length, ...result, item_ids: [...new Set(all.map((c) => c.itemId))].slice(0, 10_000) });
  }

  private async validate(changes: PriceChange[]): Promise<void> {
    const errors: Record<string, string[]> = {};
    const itemIds = [...new Set(changes.map((c) => c.itemId))];
    const bookIds = [...new Set(changes.map((c) => c.priceBookId).filter((b): b is number => b !== undefined))];
    const items = new Set<number>();
    for (let i = 0; i < itemIds.length; i += 1000) {
      const rows = (await this.db.query(`SELECT id FROM items WHERE deleted_at IS NULL AND id IN (${itemIds.slice(i, i + 1000).map(() => '?').join(',')})`, itemIds.slice(i, i + 1000))) as { id: number }[];
      rows.forEach((r) => items.add(Number(r.id)));
    }
    const books = new Set(
      bookIds.length ? ((await this.db.query(`SELECT id FROM price_books WHERE deleted_at IS NULL AND id IN (${bookIds.map(() => '?').join(',')})`, bookIds)) as { id: number }[]).map((b) => Number(b.id)) : [],
    );
    const seen = new Set<string>();
    changes.forEach((c, i) => {
      if (!items.has(c.itemId)) (errors[`changes.${i}.item_id`] ??= []).push('The selected item does not exist.');
      if (c.priceBookId !== undefined && !books.has(c.priceBookId)) (errors[`changes.${i}.price_book_id`] ??= []).push('The selected price book does not exist.');
      const key = `${c.priceBookId ?? '-'}:${c.itemId}:${c.minQuantity ?? 1}`;
      if (seen.has(key)) (errors[`changes.${i}`] ??= []).push('The same price is changed twice in this request.');
      seen.add(key);
    });
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
  }

  private view(job: BulkPriceJobEntity) {
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
