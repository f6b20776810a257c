import { Injectable } from '@nestjs/common';
import { Column, Entity, In, IsNull, PrimaryGeneratedColumn } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { TxRepository, utcDate } from '@pos/platform';
import { bigintToNumber } from '@pos/platform/database/columns';
import { SaleReviewFilter, SaleReviewLine, SaleReviewReason, SaleReviewRecord, SaleReviewRepository } from '../application/sale-review.ports';

const date = (name: string, nullable = false) => ({ name, type: 'datetime' as const, nullable, transformer: utcDate });

@Entity('sale_reviews')
export class SaleReviewEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'sale_id' }) saleId!: number;
  @Column({ name: 'store_id' }) storeId!: number;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ name: 'receipt_number' }) receiptNumber!: string;
  @Column({ type: 'varchar' }) reason!: SaleReviewReason;
  @Column({ name: 'currency_code' }) currencyCode!: string;
  /** The flagged lines as JSON (minor units). */
  @Column({ type: 'text' }) lines!: string;
  @Column({ type: 'bigint', transformer: bigintToNumber }) difference!: number;
  @Column(date('sale_created_at')) saleCreatedAt!: Date;
  @Column(date('created_at')) createdAt!: Date;
  @Column(date('resolved_at', true)) resolvedAt!: Date | null;
  @Column({ name: 'resolved_by', type: 'integer', nullable: true }) resolvedBy!: number | null;
  @Column({ name: 'resolution_note', type: 'varchar', nullable: true }) resolutionNote!: string | null;
}

function record(e: SaleReviewEntity): SaleReviewRecord {
  return { ...e, lines: JSON.parse(e.lines) as SaleReviewLine[] };
}

@Injectable()
export class TypeOrmSaleReviewRepository extends TxRepository implements SaleReviewRepository {
  private get repo() {
    return this.em.getRepository(SaleReviewEntity);
  }

  async create(review: Omit<SaleReviewRecord, 'id'>): Promise<SaleReviewRecord> {
    const [id] = await this.insertRows(SaleReviewEntity, [{ ...review, lines: JSON.stringify(review.lines) }]);
    return { ...review, id };
  }

  async find(id: number): Promise<SaleReviewRecord | null> {
    const row = await this.repo.findOneBy({ id });
    return row ? record(row) : null;
  }

  async ofSales(saleIds: number[]): Promise<SaleReviewRecord[]> {
    if (!saleIds.length) return [];
    return (await this.repo.find({ where: { saleId: In(saleIds) }, order: { id: 'ASC' } })).map(record);
  }

  async list(f: SaleReviewFilter, page: PageRequest): Promise<Page<SaleReviewRecord>> {
    const qb = this.repo.createQueryBuilder('r').where('1 = 1');
    if (f.storeIds !== 'all') qb.andWhere('r.store_id IN (:...scope)', { scope: f.storeIds.length ? [...f.storeIds] : [0] });
    if (f.storeId !== undefined) qb.andWhere('r.store_id = :storeId', { storeId: f.storeId });
    if (f.status === 'open') qb.andWhere('r.resolved_at IS NULL');
    if (f.status === 'resolved') qb.andWhere('r.resolved_at IS NOT NULL');
    if (f.from) qb.andWhere('r.created_at >= :from', { from: f.from });
    if (f.to) qb.andWhere('r.created_at < :to', { to: f.to });
    const [rows, total] = await qb.orderBy('r.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows.map(record), total, page.page, page.perPage);
  }

  async resolve(id: number, by: number, note: string, at: Date): Promise<boolean> {
    const result = await this.repo.update({ id, resolvedAt: IsNull() }, { resolvedAt: at, resolvedBy: by, resolutionNote: note });
    return (result.affected ?? 0) > 0;
  }
}
