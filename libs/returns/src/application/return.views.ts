import { Injectable } from '@nestjs/common';
import { fromMinor, NotFoundError } from '@pos/kernel';
import { StoreContext } from '@pos/catalog';
import { CurrencyDecimals } from '@pos/pricing';
import { stockAction } from '../domain/return-condition';
import { CreditNoteRecord, ReturnItemRecord, ReturnReasonRecord, ReturnRefundRecord, ReturnRepository, SaleReturnRecord } from './return.ports';

type Money = (minor: number) => number;
const iso = (d: Date | null) => d?.toISOString() ?? null;

export function reasonView(r: ReturnReasonRecord) {
  return { id: r.id, code: r.code, name: r.name };
}

function itemView(l: ReturnItemRecord, m: Money) {
  return {
    id: l.id,
    line: l.lineNo,
    sale_item_id: l.saleItemId,
    item_id: l.itemId,
    sku: l.sku,
    name: l.name,
    unit: l.unitName ? { name: l.unitName, factor: l.factor } : null,
    quantity: l.quantity,
    base_quantity: l.baseQuantity,
    condition: l.condition,
    restock: l.restock,
    /** What processing does with the goods: restock, damage / spoilage write-off, or none. */
    stock_action: stockAction(l.condition, l.restock),
    warehouse_id: l.warehouseId,
    serial_number: l.serialNumber,
    notes: l.notes,
    refund_net: m(l.refundNet),
    refund_tax: m(l.refundTax),
    refund_total: m(l.refundTotal),
  };
}

function refundView(r: ReturnRefundRecord, m: Money) {
  return { payment_method_id: r.paymentMethodId, payment_method_code: r.methodCode, type: r.methodType, amount: m(r.amount) };
}

export function creditNoteView(c: CreditNoteRecord, m: Money) {
  return {
    id: c.id,
    number: c.number,
    sale_id: c.saleId,
    invoice_id: c.invoiceId,
    amount: m(c.amount),
    net: m(c.net),
    tax: m(c.tax),
    on_account: m(c.onAccount),
    issued_at: c.issuedAt.toISOString(),
  };
}

export type ReturnSummaryView = Awaited<ReturnType<ReturnViews['summaries']>>[number];
export type ReturnDetailView = Awaited<ReturnType<ReturnViews['detail']>>;

/** Views of returns (JSON amounts in the sale's currency) shared by the endpoints, the feeds and the events. */
@Injectable()
export class ReturnViews {
  constructor(
    private readonly returns: ReturnRepository,
    private readonly stores: StoreContext,
    private readonly currencies: CurrencyDecimals,
  ) {}

  async money(currencyCode: string): Promise<Money> {
    const decimals = await this.currencies.of(currencyCode);
    return (v) => fromMinor(v, decimals);
  }

  /** Summary rows for a page of returns: store, warehouse and reason names in a few queries. */
  async summaries(rows: SaleReturnRecord[]) {
    const [{ stores, warehouses }, reasons] = await Promise.all([
      this.stores.names(
        rows.map((r) => r.storeId),
        rows.map((r) => r.warehouseId).filter((w): w is number => w !== null),
      ),
      this.returns.reasonsByIds([...new Set(rows.map((r) => r.reasonId).filter((id): id is number => id !== null))]),
    ]);
    const reasonById = new Map(reasons.map((r) => [r.id, r]));
    const money = new Map<string, Money>();
    for (const code of new Set(rows.map((r) => r.currencyCode))) money.set(code, await this.money(code));
    return rows.map((r) => {
      const reason = r.reasonId === null ? undefined : reasonById.get(r.reasonId);
      return {
        id: r.id,
        number: r.number,
        status: r.status,
        sale_id: r.saleId,
        receipt_number: r.receiptNumber,
        store: { id: r.storeId, name: stores.get(r.storeId) ?? '' },
        warehouse: r.warehouseId === null ? null : { id: r.warehouseId, name: warehouses.get(r.warehouseId) ?? '' },
        customer_id: r.customerId,
        user_id: r.userId,
        reason: reason ? reasonView(reason) : null,
        refund_total: money.get(r.currencyCode)!(r.refundTotal),
        currency: r.currencyCode,
        created_at: r.createdAt.toISOString(),
        approved_at: iso(r.approvedAt),
        processed_at: iso(r.processedAt),
        updated_at: r.updatedAt.toISOString(),
      };
    });
  }

  async detail(id: number) {
    const r = await this.returns.find(id);
    if (!r) throw new NotFoundError('Return');
    const [[summary], items, refunds, [note], m] = await Promise.all([
      this.summaries([r]),
      this.returns.items([id]),
      this.returns.refunds([id]),
      this.returns.creditNotes([id]),
      this.money(r.currencyCode),
    ]);
    return {
      ...summary,
      refund_net: m(r.refundNet),
      refund_tax: m(r.refundTax),
      reason_notes: r.reasonNotes,
      internal_notes: r.internalNotes,
      decision_notes: r.decisionNotes,
      idempotency_key: r.idempotencyKey,
      session_id: r.sessionId,
      approved_by: r.approvedBy,
      rejected_by: r.rejectedBy,
      rejected_at: iso(r.rejectedAt),
      cancelled_by: r.cancelledBy,
      cancelled_at: iso(r.cancelledAt),
      processed_by: r.processedBy,
      items: items.map((l) => itemView(l, m)),
      refunds: refunds.map((f) => refundView(f, m)),
      credit_note: note ? creditNoteView(note, m) : null,
    };
  }
}
