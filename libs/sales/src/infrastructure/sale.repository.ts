import { Injectable } from '@nestjs/common';
import { In } from 'typeorm';
import { utcDayOf, utcMonthOf } from '@pos/kernel';
import { TxRepository } from '@pos/platform';
import { SaleItemRecord, SalePaymentRecord, SaleRecord, SaleRepository } from '../application/sale.ports';
import { ReceiptCounterEntity, SaleEntity, SaleItemEntity, SalePaymentEntity } from './sale.entities';

/** The sale port: a sale's rows (sale, lines, payments), its receipt number and the feed's counts kept with it. */
@Injectable()
export class TypeOrmSaleRepository extends TxRepository implements SaleRepository {
  /**
   * The store's next receipt number in one statement: the counter row is bumped and its new value
   * read back by the same UPDATE (LAST_INSERT_ID(expr) on MySQL, whose OK packet carries it;
   * RETURNING on SQLite). The row is locked until the sale commits, so numbers never repeat. The
   * UPDATE comes first: an INSERT IGNORE on an existing row would take a shared lock that two
   * sellers then both try to upgrade (a deadlock). The row is created only the first time.
   */
  async nextReceiptNumber(storeId: number): Promise<number> {
    const bump = async (): Promise<number | null> => {
      if (this.isSqlite) {
        const rows = await this.statement<{ last_number: number }[]>(
          'UPDATE receipt_counters SET last_number = last_number + 1 WHERE store_id = ? RETURNING last_number',
          [storeId],
        );
        return rows.length ? Number(rows[0].last_number) : null;
      }
      const ok = await this.statement<{ affectedRows: number; insertId: number }>(
        'UPDATE receipt_counters SET last_number = LAST_INSERT_ID(last_number + 1) WHERE store_id = ?',
        [storeId],
      );
      return ok.affectedRows ? Number(ok.insertId) : null;
    };
    const next = await bump();
    if (next !== null) return next;
    // The store's first sale: its counter row, then the bump.
    await this.em.getRepository(ReceiptCounterEntity).createQueryBuilder().insert().values({ storeId, lastNumber: 0 }).orIgnore().execute();
    return (await bump())!;
  }

  async insertSale(sale: Omit<SaleRecord, 'id'>): Promise<SaleRecord> {
    const [id] = await this.insertRows(SaleEntity, [sale]);
    const saved: SaleRecord = { ...sale, id };
    await this.count(saved, [[saved.status, 1]]);
    return saved;
  }

  /**
   * sale_counts: sales per UTC day and per UTC month (grains 'd' and 'm'), store, warehouse and
   * status, changed in the transaction that inserts a sale or changes its status, by one upsert of
   * every row concerned (in key order, so concurrent writers take their row locks in one order).
   * The feeds read meta.total from it (exact, without counting a million rows: whole months from
   * the month rows) and find the day a deep page starts on.
   */
  private async count(sale: Pick<SaleRecord, 'createdAt' | 'storeId' | 'warehouseId'>, changes: [status: string, delta: 1 | -1][]): Promise<void> {
    const day = utcDayOf(sale.createdAt);
    const sorted = [...changes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const rows = [
      ...sorted.map(([status, delta]) => ['d', day, sale.storeId, sale.warehouseId ?? 0, status, delta]),
      ...sorted.map(([status, delta]) => ['m', utcMonthOf(day), sale.storeId, sale.warehouseId ?? 0, status, delta]),
    ];
    const upsert = this.isSqlite
      ? 'ON CONFLICT (grain, day, store_id, warehouse_id, status) DO UPDATE SET n = n + excluded.n'
      : 'ON DUPLICATE KEY UPDATE n = n + VALUES(n)';
    await this.statement(
      `INSERT INTO sale_counts (grain, day, store_id, warehouse_id, status, n) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')} ${upsert}`,
      rows.flat(),
    );
  }

  async insertItems(items: Omit<SaleItemRecord, 'id'>[]): Promise<SaleItemRecord[]> {
    if (!items.length) return [];
    const ids = await this.insertRows(SaleItemEntity, items);
    return items.map((item, i) => ({ ...item, id: ids[i] }));
  }

  async insertPayments(payments: Omit<SalePaymentRecord, 'id'>[]): Promise<SalePaymentRecord[]> {
    if (!payments.length) return [];
    const ids = await this.insertRows(SalePaymentEntity, payments);
    return payments.map((payment, i) => ({ ...payment, id: ids[i] }));
  }

  find(id: number): Promise<SaleRecord | null> {
    return this.em.getRepository(SaleEntity).findOneBy({ id });
  }

  items(saleIds: number[]): Promise<SaleItemRecord[]> {
    return saleIds.length
      ? this.em.getRepository(SaleItemEntity).find({ where: { saleId: In(saleIds) }, order: { saleId: 'ASC', lineNo: 'ASC' } })
      : Promise.resolve([]);
  }

  payments(saleIds: number[]): Promise<SalePaymentRecord[]> {
    return saleIds.length ? this.em.getRepository(SalePaymentEntity).find({ where: { saleId: In(saleIds) }, order: { id: 'ASC' } }) : Promise.resolve([]);
  }

  async updateSale(id: number, changes: Partial<SaleRecord>): Promise<void> {
    const before = changes.status !== undefined ? await this.find(id) : null;
    await this.em.getRepository(SaleEntity).update({ id }, changes);
    if (before && changes.status !== undefined && changes.status !== before.status) {
      await this.count(before, [
        [before.status, -1],
        [changes.status, 1],
      ]);
    }
  }

  /** `SELECT ... FOR UPDATE` on MySQL: concurrent writers of the same sale queue here, and read what the previous one committed. */
  async lockSale(id: number): Promise<boolean> {
    if (this.isSqlite) return (await this.find(id)) !== null;
    const rows = (await this.em.query('SELECT id FROM sales WHERE id = ? FOR UPDATE', [id])) as unknown[];
    return rows.length > 0;
  }

  async addReturnedQuantity(saleId: number, saleItemId: number, quantity: number): Promise<boolean> {
    const result = await this.em
      .createQueryBuilder()
      .update(SaleItemEntity)
      .set({ returnedQuantity: () => 'returned_quantity + :quantity' })
      .where('id = :saleItemId AND sale_id = :saleId AND returned_quantity + :quantity <= quantity', { saleItemId, saleId, quantity })
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
