import { Injectable } from '@nestjs/common';
import { fromMinor, NotFoundError } from '@pos/kernel';
import { StoreRepository } from '@pos/catalog';
import { PricedCartResult, pricedCartView } from '@pos/pricing';
import { InvoiceRecord, SaleItemRecord, SalePaymentRecord, SaleRecord, SaleRepository } from './sale.ports';

export function invoiceStatus(inv: InvoiceRecord, now: Date): string {
  if (inv.balance > 0 && inv.dueAt < now && inv.status !== 'void') return 'overdue';
  return inv.status;
}

export function invoiceView(inv: InvoiceRecord, now: Date) {
  return {
    id: inv.id,
    number: inv.number,
    sale_id: inv.saleId,
    store_id: inv.storeId,
    customer_id: inv.customerId,
    status: invoiceStatus(inv, now),
    issued_at: inv.issuedAt.toISOString(),
    due_at: inv.dueAt.toISOString(),
    amount: fromMinor(inv.amount),
    paid: fromMinor(inv.paid),
    balance: fromMinor(inv.balance),
  };
}

function itemView(l: SaleItemRecord) {
  return {
    id: l.id,
    line: l.lineNo,
    item_id: l.itemId,
    sku: l.sku,
    name: l.name,
    unit: l.unitId ? { id: l.unitId, name: l.unitName, factor: l.factor } : null,
    quantity: l.quantity,
    base_quantity: l.baseQuantity,
    returned_quantity: l.returnedQuantity,
    base_price: fromMinor(l.basePrice),
    unit_price: fromMinor(l.unitPrice),
    price_source: l.priceSource,
    gross: fromMinor(l.gross),
    discounts: {
      rule: fromMinor(l.ruleDiscount),
      bundle: fromMinor(l.bundleDiscount),
      manual: fromMinor(l.manualDiscount),
      cart: fromMinor(l.cartDiscount),
      total: fromMinor(l.ruleDiscount + l.bundleDiscount + l.manualDiscount + l.cartDiscount),
    },
    discount_reason: l.discountReason,
    discount_approved_by: l.discountApprovedBy,
    net: fromMinor(l.net),
    tax_rate: l.taxRateBp / 100,
    tax: fromMinor(l.tax),
    total: fromMinor(l.total),
    warehouse_id: l.warehouseId,
    serial_number: l.serialNumber,
  };
}

function paymentView(p: SalePaymentRecord) {
  return {
    id: p.id,
    payment_method_id: p.paymentMethodId,
    payment_method_code: p.methodCode,
    type: p.methodType,
    amount: fromMinor(p.amount),
    tendered: p.tendered === null ? null : fromMinor(p.tendered),
    change: fromMinor(p.changeAmount),
    reference: p.reference,
  };
}

/** Views of sales shared by checkout, the sales endpoints, receipts and the integration feed. */
@Injectable()
export class SaleViews {
  constructor(
    private readonly sales: SaleRepository,
    private readonly stores: StoreRepository,
  ) {}

  pricedCart(r: PricedCartResult) {
    return pricedCartView(r);
  }

  /** Summary rows (contract 2.5) for a page of sales: store and warehouse names in two queries. */
  async summaries(sales: SaleRecord[]) {
    const storeIds = [...new Set(sales.map((s) => s.storeId))];
    const stores = new Map<number, string>();
    for (const id of storeIds) stores.set(id, (await this.stores.findStore(id))?.name ?? '');
    const warehouses = new Map<number, string>();
    for (const id of [...new Set(sales.map((s) => s.warehouseId).filter((w): w is number => w !== null))])
      warehouses.set(id, (await this.stores.findWarehouse(id))?.name ?? '');
    return sales.map((s) => ({
      id: s.id,
      receipt_number: s.receiptNumber,
      status: s.status,
      store: { id: s.storeId, name: stores.get(s.storeId) ?? '' },
      warehouse: s.warehouseId === null ? null : { id: s.warehouseId, name: warehouses.get(s.warehouseId) ?? '' },
      total_amount: fromMinor(s.totalAmount),
      created_at: s.createdAt.toISOString(),
      customer_id: s.customerId,
      user_id: s.userId,
      session_id: s.sessionId,
      reference: s.reference,
    }));
  }

  async detail(id: number, now = new Date()) {
    const s = await this.sales.find(id);
    if (!s) throw new NotFoundError('Sale');
    const [[summary], items, payments, invoice] = await Promise.all([
      this.summaries([s]),
      this.sales.items([id]),
      this.sales.payments([id]),
      this.sales.invoiceOfSale(id),
    ]);
    return {
      ...summary,
      subtotal: fromMinor(s.subtotal),
      discount_total: fromMinor(s.discountTotal),
      tax_total: fromMinor(s.taxTotal),
      paid_amount: fromMinor(s.paidAmount),
      change_amount: fromMinor(s.changeAmount),
      balance_due: fromMinor(s.balanceDue),
      currency: s.currencyCode,
      tax_exempt: s.taxExempt,
      tax_exempt_reason: s.taxExemptReason,
      idempotency_key: s.idempotencyKey,
      offline_created_at: s.offlineCreatedAt?.toISOString() ?? null,
      voided_at: s.voidedAt?.toISOString() ?? null,
      void_reason: s.voidReason,
      items: items.map(itemView),
      payments: payments.map(paymentView),
      invoice: invoice ? invoiceView(invoice, now) : null,
    };
  }
}
