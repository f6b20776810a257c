import { Injectable, OnModuleInit } from '@nestjs/common';
import { ModuleRef } from '@nestjs/core';
import { TransactionHost } from '@nestjs-cls/transactional';
import { TransactionalAdapterTypeOrm } from '@nestjs-cls/transactional-adapter-typeorm';
import { Clock, NotFoundError } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { StockLedger } from '@pos/catalog';
import { SessionService } from '@pos/sessions';
import { requirePort, withTransactionRetry } from '@pos/platform';
import { SaleErrors } from '../domain/sale.errors';
import { InvoiceRepository } from './invoice.ports';
import { OpenReturns } from './sale-returns';
import { SaleRecord, SaleRepository } from './sale.ports';
import { SaleVoidCompletion } from './sale-void-completion';

/** A sale the caller may see: 404 when unknown or in a store they cannot act on. */
export async function visibleSale(sales: SaleRepository, principal: Principal, id: number): Promise<SaleRecord> {
  const s = await sales.find(id);
  if (!s || !canAccessStore(principal, s.storeId)) throw new NotFoundError('Sale');
  return s;
}

/** Voids (sales.void), apart from the sales history: their own transaction, stock and invoice; then SaleVoidCompletion. */
@Injectable()
export class SaleVoids implements OnModuleInit {
  private openReturns!: OpenReturns;

  constructor(
    private readonly txHost: TransactionHost<TransactionalAdapterTypeOrm>,
    private readonly sales: SaleRepository,
    private readonly invoices: InvoiceRepository,
    private readonly ledger: StockLedger,
    private readonly sessions: SessionService,
    private readonly completion: SaleVoidCompletion,
    private readonly clock: Clock,
    private readonly moduleRef: ModuleRef,
  ) {}

  onModuleInit(): void {
    this.openReturns = requirePort(this.moduleRef, OpenReturns, 'SaleVoids', 'ReturnsModule');
  }

  /**
   * Voids a completed sale with no returns and no later payment on its invoice (sales.void):
   * restocks every line, reverses the payments (the invoice is voided, a refund of what was
   * paid), emits sale.voided.
   */
  async void(principal: Principal, id: number, reason?: string) {
    return withTransactionRetry(this.txHost, async () => {
      // First, before any read: a void and a return being processed on the same sale take turns
      // (SaleReturns locks it too), so the checks below see what the other committed.
      await this.sales.lockSale(id);
      const sale = await visibleSale(this.sales, principal, id);
      if (sale.status !== 'completed') throw SaleErrors.notVoidable(sale.status);
      const items = await this.sales.items([id]);
      if (items.some((l) => l.returnedQuantity > 0)) throw SaleErrors.hasReturns();
      if (await this.openReturns.exist(id)) throw SaleErrors.hasOpenReturns();
      // A void hands back what the sale took; money paid on its invoice later is refunded by a return.
      const invoice = await this.invoices.invoiceOfSale(id);
      if (invoice && invoice.paidLater > 0) throw SaleErrors.paidOnAccount();
      const now = this.clock.now();
      // A closed session's drawer was counted with this sale's cash in it: it keeps the sale.
      const voidedAfterClose = sale.sessionId !== null && (await this.sessions.isClosed(sale.sessionId));
      if (voidedAfterClose) {
        // ...so the cash handed back now comes out of the drawer that hands it back.
        const cash = (await this.sales.payments([id])).filter((p) => p.methodType === 'cash').reduce((a, p) => a + p.amount, 0);
        await this.sessions.payOutVoidedCash(principal.userId, sale.storeId, cash, `Void of sale ${sale.receiptNumber} after its session closed`, now);
      }
      await this.ledger.restock(
        { type: 'sale_void', id: String(id), userId: principal.userId, storeId: sale.storeId, notes: reason ?? null },
        items.map((l) => ({
          field: `items.${l.lineNo}`,
          itemId: l.itemId,
          warehouseId: l.warehouseId,
          quantity: l.baseQuantity,
          serialNumber: l.serialNumber,
          unitCost: l.factor ? Math.round(l.unitCost / l.factor) : l.unitCost,
        })),
        'void',
      );
      await this.sales.updateSale(id, {
        status: 'voided',
        voidedAt: now,
        voidedBy: principal.userId,
        voidReason: reason ?? null,
        voidedAfterClose,
        updatedAt: now,
      });
      if (invoice) await this.invoices.updateInvoice(invoice.id, { status: 'void', balance: 0, updatedAt: now });
      const voided = { ...sale, status: 'voided', voidedAt: now, voidedBy: principal.userId, voidReason: reason ?? null, voidedAfterClose, updatedAt: now };
      return this.completion.complete(sale, voided, items, now);
    });
  }
}
