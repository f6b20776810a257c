import { Injectable } from '@nestjs/common';
import { Clock, ConflictError, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { StoreContext } from '@pos/catalog';
import { InvoiceRepository } from './invoice.ports';
import { InvoiceRecord, SaleItemRecord, SaleRecord, SaleRepository } from './sale.ports';

/**
 * A port the returns context binds (checked at boot): whether a sale has returns still open
 * (pending or approved). decisions.md: only a sale with no returns can be voided; processed
 * returns show on the sale's own lines, open ones only in the returns context.
 */
export abstract class OpenReturns {
  abstract exist(saleId: number): Promise<boolean>;
}

/** Money taken for a sale through one tender (minor units). */
export interface SaleTender {
  paymentMethodId: number;
  methodCode: string;
  methodType: string;
  amount: number;
}

/** A sale as the returns context sees it: its records, what was paid with what, its invoice. */
export interface ReturnableSale {
  sale: SaleRecord;
  items: SaleItemRecord[];
  /**
   * In the order received: the sale's payments (cash net of change; an on_account tender for
   * what was put on account), then the invoice's later payments.
   */
  tenders: SaleTender[];
  invoice: InvoiceRecord | null;
}

/** Units of one sale line that a processed return brought back. */
export interface ReturnedLine {
  saleItemId: number;
  quantity: number;
  /** Where a refusal is reported (e.g. `items.0.quantity`). */
  field: string;
}

/** Statuses of a sale that can still take a return. */
export const RETURNABLE_SALE_STATUSES = ['completed', 'partially_refunded'];

/**
 * Published by sales for the returns context: read a sale as records, and change it when a
 * return is processed (returned quantities on its lines, its status, its invoice), so returns
 * never touches the sales tables. Call `lock` first in a transaction that changes returns of a
 * sale: writers of one sale then take turns (and see what the previous one committed).
 */
@Injectable()
export class SaleReturns {
  constructor(
    private readonly sales: SaleRepository,
    private readonly invoices: InvoiceRepository,
    private readonly stores: StoreContext,
    private readonly clock: Clock,
  ) {}

  /** The sale with its lines, tenders and invoice: 404 when unknown or in a store the caller cannot see. */
  async find(principal: Principal, saleId: number): Promise<ReturnableSale> {
    const sale = await this.sales.find(saleId);
    if (!sale || !canAccessStore(principal, sale.storeId)) throw new NotFoundError('Sale');
    const [items, payments, invoice] = await Promise.all([this.sales.items([saleId]), this.sales.payments([saleId]), this.invoices.invoiceOfSale(saleId)]);
    const later = invoice ? await this.invoices.invoicePayments(invoice.id) : [];
    // Later invoice payments record the method, not its type: the store's methods tell it.
    const types = new Map((later.length ? await this.stores.paymentMethods(sale.storeId) : []).map((m) => [m.id, m.type]));
    return {
      sale,
      items,
      tenders: [
        ...payments.map((p) => ({ paymentMethodId: p.paymentMethodId, methodCode: p.methodCode, methodType: p.methodType, amount: p.amount })),
        ...later.map((p) => ({
          paymentMethodId: p.paymentMethodId,
          methodCode: p.methodCode,
          methodType: types.get(p.paymentMethodId) ?? p.methodCode,
          amount: p.amount,
        })),
      ],
      invoice,
    };
  }

  /** Locks the sale for the rest of the transaction (404 when there is no such sale). */
  async lock(saleId: number): Promise<void> {
    if (!(await this.sales.lockSale(saleId))) throw new NotFoundError('Sale');
  }

  /**
   * A processed return: the returned units are added to their lines (never beyond what was sold:
   * 422 on the line's field), the sale becomes `refunded` when every unit has come back, else
   * `partially_refunded`; the credit note is recorded on the invoice and its on-account part
   * reduces the balance (`credited` once the whole invoice is credited, `paid` when nothing is
   * left to pay). A sale that is not completed or partially refunded: 409.
   */
  async applyReturn(
    saleId: number,
    lines: ReturnedLine[],
    refund: { onAccount: number },
    creditNote: { amount: number } | null,
  ): Promise<{ sale: SaleRecord; invoice: InvoiceRecord | null }> {
    const sale = await this.sales.find(saleId);
    if (!sale) throw new NotFoundError('Sale');
    if (!RETURNABLE_SALE_STATUSES.includes(sale.status)) throw new ConflictError('sale_not_returnable', `A ${sale.status} sale cannot take a return.`);
    for (const line of [...lines].sort((a, b) => a.saleItemId - b.saleItemId)) {
      if (!(await this.sales.addReturnedQuantity(saleId, line.saleItemId, line.quantity))) {
        throw ValidationFailedError.field(line.field, 'The quantity is more than is still returnable on this sale line.');
      }
    }
    const now = this.clock.now();
    const items = await this.sales.items([saleId]);
    const status = items.every((l) => l.returnedQuantity >= l.quantity) ? 'refunded' : 'partially_refunded';
    await this.sales.updateSale(saleId, { status, updatedAt: now });
    let invoice = await this.invoices.invoiceOfSale(saleId);
    if (invoice && (creditNote || refund.onAccount > 0)) {
      if (refund.onAccount > invoice.balance) throw new ConflictError('invoice_balance', 'The on-account refund is more than the invoice balance.');
      const credited = invoice.credited + (creditNote?.amount ?? 0);
      const balance = invoice.balance - refund.onAccount;
      const invoiceStatus =
        invoice.status === 'void' ? 'void' : credited >= invoice.amount ? 'credited' : balance === 0 && invoice.status !== 'paid' ? 'paid' : invoice.status;
      const changes = { credited, balance, status: invoiceStatus, updatedAt: now };
      await this.invoices.updateInvoice(invoice.id, changes);
      invoice = { ...invoice, ...changes };
    }
    return { sale: { ...sale, status, updatedAt: now }, invoice };
  }
}
