import { Injectable } from '@nestjs/common';
import { changeWhere, Page, pageOffset, PageRequest } from '@pos/kernel';
import { TxRepository } from '@pos/platform';
import { InvoiceFilter, InvoiceRepository } from '../application/invoice.ports';
import { InvoicePaymentRecord, InvoiceRecord } from '../application/sale.ports';
import { InvoiceEntity, InvoicePaymentEntity } from './sale.entities';

/** The invoice port: one invoice per sale, its later payments, the invoices list. */
@Injectable()
export class TypeOrmInvoiceRepository extends TxRepository implements InvoiceRepository {
  async insertInvoice(invoice: Omit<InvoiceRecord, 'id'>): Promise<InvoiceRecord> {
    const [id] = await this.insertRows(InvoiceEntity, [invoice]);
    return { ...invoice, id };
  }

  invoiceOfSale(saleId: number): Promise<InvoiceRecord | null> {
    return this.em.getRepository(InvoiceEntity).findOneBy({ saleId });
  }

  invoice(id: number): Promise<InvoiceRecord | null> {
    return this.em.getRepository(InvoiceEntity).findOneBy({ id });
  }

  async invoices(f: InvoiceFilter, page: PageRequest): Promise<Page<InvoiceRecord>> {
    const qb = this.em.getRepository(InvoiceEntity).createQueryBuilder('i').where('1 = 1');
    if (f.storeIds !== 'all') qb.andWhere('i.store_id IN (:...scope)', { scope: f.storeIds.length ? [...f.storeIds] : [0] });
    if (f.storeId !== undefined) qb.andWhere('i.store_id = :storeId', { storeId: f.storeId });
    if (f.warehouseId !== undefined)
      qb.andWhere('i.sale_id IN (SELECT ws.id FROM sales ws WHERE ws.warehouse_id = :warehouseId)', { warehouseId: f.warehouseId });
    if (f.status === 'overdue') qb.andWhere('i.balance > 0 AND i.due_at < :now', { now: f.now });
    else if (f.status) qb.andWhere('i.status = :status', { status: f.status });
    if (f.from) qb.andWhere('i.issued_at >= :from', { from: f.from });
    if (f.to) qb.andWhere('i.issued_at < :to', { to: f.to });
    if (f.q) qb.andWhere('i.number = :q', { q: f.q });
    if (f.change) {
      // Change mode (issue 26): (updated_at, id) order up to the horizon, no count (IDX_invoices_changes).
      const w = changeWhere('i', f.change);
      const rows = await qb.andWhere(w.sql, w.params).orderBy('i.updated_at', 'ASC').addOrderBy('i.id', 'ASC').take(f.change.limit).getMany();
      return new Page(rows, rows.length, 1, f.change.limit);
    }
    const [rows, total] = await qb.orderBy('i.id', 'DESC').skip(pageOffset(page)).take(page.perPage).getManyAndCount();
    return new Page(rows, total, page.page, page.perPage);
  }

  async updateInvoice(id: number, changes: Partial<InvoiceRecord>): Promise<void> {
    await this.em.getRepository(InvoiceEntity).update({ id }, changes);
  }

  insertInvoicePayment(p: Omit<InvoicePaymentRecord, 'id'>): Promise<InvoicePaymentRecord> {
    const repo = this.em.getRepository(InvoicePaymentEntity);
    return repo.save(repo.create(p));
  }

  invoicePayments(invoiceId: number): Promise<InvoicePaymentRecord[]> {
    return this.em.getRepository(InvoicePaymentEntity).find({ where: { invoiceId }, order: { id: 'ASC' } });
  }
}
