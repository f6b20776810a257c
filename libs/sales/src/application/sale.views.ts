import { Injectable } from '@nestjs/common';
import { fromMinor, NotFoundError } from '@pos/kernel';
import { StoreContext } from '@pos/catalog';
import { CurrencyDecimals, discountBreakdown, PricedCartResult, pricedCartView } from '@pos/pricing';
import { InvoiceRepository } from './invoice.ports';
import { InvoiceRecord, SaleItemRecord, SalePaymentRecord, SaleRecord, SaleRepository, SaleSummaryRecord } from './sale.ports';

export function invoiceStatus(inv: InvoiceRecord, now: Date): string {
  if (inv.balance > 0 && inv.dueAt < now && inv.status !== 'void') return 'overdue';
  return inv.status;
}

type Money = (minor: number) => number;

/** An invoice in its currency (`m`: minor units to that currency's JSON amounts). */
export function invoiceView(inv: InvoiceRecord, now: Date, m: Money) {
  return {
    id: inv.id,
    number: inv.number,
    sale_id: inv.saleId,
    store_id: inv.storeId,
    customer_id: inv.customerId,
    status: invoiceStatus(inv, now),
    issued_at: inv.issuedAt.toISOString(),
    due_at: inv.dueAt.toISOString(),
    amount: m(inv.amount),
    paid: m(inv.paid),
    credited: m(inv.credited),
    balance: m(inv.balance),
    updated_at: inv.updatedAt.toISOString(),
  };
}

function itemView(l: SaleItemRecord, m: Money) {
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
    base_price: m(l.basePrice),
    unit_price: m(l.unitPrice),
    price_source: l.priceSource,
    gross: m(l.gross),
    discounts: discountBreakdown(l, m),
    discount_reason: l.discountReason,
    discount_approved_by: l.discountApprovedBy,
    net: m(l.net),
    tax_rate: l.taxRateBp / 100,
    tax: m(l.tax),
    tax_exempted: m(l.taxExempted),
    total: m(l.total),
    warehouse_id: l.warehouseId,
    serial_number: l.serialNumber,
  };
}

function paymentView(p: SalePaymentRecord, m: Money) {
  return {
    id: p.id,
    payment_method_id: p.paymentMethodId,
    payment_method_code: p.methodCode,
    type: p.methodType,
    amount: m(p.amount),
    tendered: p.tendered === null ? null : m(p.tendered),
    change: m(p.changeAmount),
    reference: p.reference,
  };
}

/** A sale's summary row (contract 2.5), its store's and warehouse's names given. */
function summaryView(s: SaleSummaryRecord, storeName: string, warehouseName: string, m: Money) {
  return {
    id: s.id,
    receipt_number: s.receiptNumber,
    status: s.status,
    store: { id: s.storeId, name: storeName },
    warehouse: s.warehouseId === null ? null : { id: s.warehouseId, name: warehouseName },
    total_amount: m(s.totalAmount),
    created_at: s.createdAt.toISOString(),
    customer_id: s.customerId,
    user_id: s.userId,
    session_id: s.sessionId,
    reference: s.reference,
    updated_at: s.updatedAt.toISOString(),
    synced_at: s.syncedAt?.toISOString() ?? null,
  };
}

export type SaleDetailView = Awaited<ReturnType<SaleViews['detail']>>;

/** Views of sales shared by checkout, the sales endpoints, receipts and the integration feed. */
@Injectable()
export class SaleViews {
  constructor(
    private readonly sales: SaleRepository,
    private readonly invoices: InvoiceRepository,
    private readonly stores: StoreContext,
    private readonly currencies: CurrencyDecimals,
  ) {}

  /** Minor units to JSON amounts in a currency (its own decimals: JPY has none). */
  async money(currencyCode: string): Promise<Money> {
    const decimals = await this.currencies.of(currencyCode);
    return (v) => fromMinor(v, decimals);
  }

  pricedCart(r: PricedCartResult) {
    return pricedCartView(r);
  }

  /** Summary rows (contract 2.5) for a page of sales: store and warehouse names in two queries. */
  async summaries(sales: SaleSummaryRecord[]) {
    const { stores, warehouses } = await this.stores.names(
      sales.map((s) => s.storeId),
      sales.map((s) => s.warehouseId).filter((w): w is number => w !== null),
    );
    const money = new Map<string, Money>();
    for (const code of new Set(sales.map((s) => s.currencyCode))) money.set(code, await this.money(code));
    return sales.map((s) =>
      summaryView(s, stores.get(s.storeId) ?? '', s.warehouseId === null ? '' : (warehouses.get(s.warehouseId) ?? ''), money.get(s.currencyCode)!),
    );
  }

  async detail(id: number, now = new Date()) {
    const s = await this.sales.find(id);
    if (!s) throw new NotFoundError('Sale');
    const [items, payments, invoice] = await Promise.all([this.sales.items([id]), this.sales.payments([id]), this.invoices.invoiceOfSale(id)]);
    return this.detailOf(s, items, payments, invoice, now);
  }

  /** The detail of a sale from its records in memory (checkout answers with what it just wrote). */
  async detailOf(s: SaleRecord, items: SaleItemRecord[], payments: SalePaymentRecord[], invoice: InvoiceRecord | null, now = new Date()) {
    // One sale (checkout's answer): its store's and warehouse's names straight from the store cache.
    const m = await this.money(s.currencyCode);
    const store = await this.stores.store(s.storeId);
    const warehouse = s.warehouseId === null ? null : await this.stores.warehouse(s.warehouseId);
    return {
      ...summaryView(s, store?.name ?? '', warehouse?.name ?? '', m),
      subtotal: m(s.subtotal),
      discount_total: m(s.discountTotal),
      tax_total: m(s.taxTotal),
      prices_include_tax: s.pricesIncludeTax,
      tax_exempted: m(items.reduce((a, l) => a + l.taxExempted, 0)),
      paid_amount: m(s.paidAmount),
      change_amount: m(s.changeAmount),
      balance_due: m(s.balanceDue),
      currency: s.currencyCode,
      tax_exempt: s.taxExempt,
      tax_exempt_reason: s.taxExemptReason,
      idempotency_key: s.idempotencyKey,
      offline_created_at: s.offlineCreatedAt?.toISOString() ?? null,
      voided_at: s.voidedAt?.toISOString() ?? null,
      void_reason: s.voidReason,
      items: items.map((l) => itemView(l, m)),
      payments: payments.map((p) => paymentView(p, m)),
      invoice: invoice ? invoiceView(invoice, now, m) : null,
    };
  }
}
