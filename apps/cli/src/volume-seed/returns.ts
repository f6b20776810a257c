import { documentNumber } from '@pos/kernel';
import { canRestock, lineRefund, LineRefund, NO_CLAIMS, refundableTenders, ReturnCondition, splitRefund, stockAction } from '@pos/returns';
import { Rand } from './random';
import { dt, offsetMs, RowWriter } from './row-writer';
import { Counts, Item, MoveFn, PlannedReturn, Store } from './types';

/** Share of the sales paid at the till that come back (on-account sales are left alone: their invoices age). */
export const RETURN_RATE = 0.025;
/** What returned goods come back as, with their weights: most go back on the shelf. */
const RETURN_CONDITION_WEIGHTS: [condition: ReturnCondition, weight: number][] = [
  ['resellable', 0.8],
  ['opened', 0.07],
  ['damaged', 0.06],
  ['defective', 0.04],
  ['spoiled', 0.03],
];

/**
 * Returns of sales paid at the till: planned as their sale is written, recorded on their day
 * (return, lines, refunds, credit note, claims, goods back), numbered per store and kind.
 */
export class ReturnBook {
  private readonly returnNumbers = new Map<string, number>();
  private managerId = 0;
  private readonly reasonIds = new Map<string, number>();

  constructor(
    private readonly db: RowWriter,
    private readonly rand: Rand,
    /** The seed's now: no return is dated after it. */
    private readonly now: Date,
  ) {}

  /** The manager who approves the returns, the reasons' ids and the numbers already used. */
  async load(managerId: number): Promise<void> {
    this.managerId = managerId;
    for (const r of (await this.db.qr.query('SELECT id, code FROM return_reasons')) as Record<string, unknown>[])
      this.reasonIds.set(String(r.code), Number(r.id));
    for (const r of (await this.db.qr.query('SELECT store_id, kind, last_number FROM return_counters')) as Record<string, unknown>[])
      this.returnNumbers.set(`${r.store_id}:${r.kind}`, Number(r.last_number));
  }

  /** The return and credit note counters follow the numbers used. */
  async writeCounters(): Promise<void> {
    for (const [key, n] of this.returnNumbers) {
      const [storeId, kind] = key.split(':');
      await this.db.qr.query('DELETE FROM return_counters WHERE store_id = ? AND kind = ?', [Number(storeId), kind]);
      await this.db.qr.query('INSERT INTO return_counters (store_id, kind, last_number) VALUES (?, ?, ?)', [Number(storeId), kind, n]);
    }
  }

  /**
   * A return of a sale paid at the till, decided as the sale is written (so the sale, its lines
   * and its invoice are written as they end up): all of it, or some units of one line, each
   * line's refund as the returns context computes it, refunded cash first.
   */
  async planReturn(
    id: number,
    store: Store,
    sale: {
      id: number;
      receiptNumber: string;
      customer: number | null;
      invoiceId: number;
      tenders: { code: string; type: string; amount: number }[];
      lineRows: Record<string, unknown>[];
      lines: { item: Item }[];
    },
    dayStart: number,
  ): Promise<PlannedReturn> {
    const whole = this.rand() < 0.55;
    const picked = whole ? sale.lineRows.map((_, i) => i) : [Math.floor(this.rand() * sale.lineRows.length)];
    const lines = picked.map((i) => {
      const row = sale.lineRows[i];
      const sold = Number(row.quantity);
      const qty = whole ? sold : 1 + Math.floor(this.rand() * sold);
      let x = this.rand();
      const condition = RETURN_CONDITION_WEIGHTS.find(([, w]) => (x -= w) < 0)?.[0] ?? 'resellable';
      const restock = canRestock(condition); // the workflow's default: sellable goods go back on the shelf
      row.returned_quantity = qty;
      const refund = lineRefund({ quantity: sold, total: Number(row.total), tax: Number(row.tax), unitCost: Number(row.unit_cost) }, NO_CLAIMS, qty);
      return { saleItemId: Number(row.id), item: sale.lines[i].item, qty, wh: Number(row.warehouse_id), condition, restock, refund };
    });
    const paid = [];
    for (const t of sale.tenders) paid.push({ paymentMethodId: await this.db.methodId(t.code), methodCode: t.code, methodType: t.type, amount: t.amount });
    const total = lines.reduce((a, l) => a + l.refund.total, 0);
    const localMidnight = dayStart - offsetMs(store.tz, dayStart + 12 * 3_600_000);
    const at = new Date(Math.min(localMidnight + (9 + this.rand() * 11) * 3_600_000, this.now.getTime() - 60_000));
    const broken = lines.some((l) => !l.restock);
    return {
      id,
      store,
      sale: {
        id: sale.id,
        receiptNumber: sale.receiptNumber,
        customerId: sale.customer,
        currency: store.currency,
        invoiceId: sale.invoiceId,
        lines: sale.lineRows.map((r) => ({ id: Number(r.id), qty: Number(r.quantity) })),
      },
      at,
      reason: broken ? (this.rand() < 0.6 ? 'damaged' : 'defective') : this.rand() < 0.6 ? 'changed_mind' : this.rand() < 0.7 ? 'wrong_item' : 'other',
      lines,
      refunds: splitRefund(total, refundableTenders(paid, [], 0)),
    };
  }

  /** The next number of a store's returns or credit notes (RET-DT-000001, CN-DT-000001). */
  private returnNumber(store: Store, kind: 'return' | 'credit_note'): string {
    const key = `${store.id}:${kind}`;
    const n = (this.returnNumbers.get(key) ?? 0) + 1;
    this.returnNumbers.set(key, n);
    return documentNumber(kind, store.code, n);
  }

  /**
   * A planned return processed at the till on its day, in one of the store's sessions: the
   * return (approved by the manager, processed by the session's cashier), its lines, refunds,
   * the credit note on the sale's invoice, the sale lines' claims, the goods back (restocked, or
   * in and written off) and the cash refunded out of the session's drawer.
   */
  recordReturn(r: PlannedReturn, session: { id: number; userId: number; cashSales: number }, move: MoveFn, counts: Counts): void {
    const sum = (pick: (l: LineRefund) => number) => r.lines.reduce((a, l) => a + pick(l.refund), 0);
    const warehouses = [...new Set(r.lines.map((l) => l.wh))];
    const at = dt(r.at);
    this.db.push('sale_returns', {
      id: r.id,
      number: this.returnNumber(r.store, 'return'),
      store_id: r.store.id,
      sale_id: r.sale.id,
      receipt_number: r.sale.receiptNumber,
      warehouse_id: warehouses.length === 1 ? warehouses[0] : null,
      customer_id: r.sale.customerId,
      user_id: session.userId,
      status: 'processed',
      reason_id: this.reasonIds.get(r.reason) ?? null,
      reason_notes: null,
      internal_notes: null,
      decision_notes: null,
      currency_code: r.sale.currency,
      refund_net: sum((l) => l.net),
      refund_tax: sum((l) => l.tax),
      refund_total: sum((l) => l.total),
      idempotency_key: `volume-return-${r.id}`,
      session_id: session.id,
      approved_by: this.managerId,
      approved_at: at,
      rejected_by: null,
      rejected_at: null,
      cancelled_by: null,
      cancelled_at: null,
      processed_by: session.userId,
      processed_at: at,
      created_at: at,
      updated_at: at,
    });
    for (const [lineNo, l] of r.lines.entries()) {
      this.db.push('sale_return_items', {
        return_id: r.id,
        line_no: lineNo,
        sale_item_id: l.saleItemId,
        item_id: l.item.id,
        sku: l.item.sku,
        name: l.item.name,
        unit_name: null,
        factor: 1,
        quantity: l.qty,
        base_quantity: l.qty,
        item_condition: l.condition,
        restock: l.restock ? 1 : 0,
        warehouse_id: l.wh,
        serial_number: null,
        notes: null,
        refund_net: l.refund.net,
        refund_tax: l.refund.tax,
        refund_total: l.refund.total,
        cost: l.refund.cost,
      });
      const action = stockAction(l.condition, l.restock);
      if (action !== 'none') move(l.item.id, l.wh, 'return', l.qty, r.at, 'return', String(r.id), l.item.cost);
      if (action === 'damage' || action === 'spoilage') move(l.item.id, l.wh, action, -l.qty, r.at, 'return', String(r.id), l.item.cost);
    }
    for (const p of r.refunds) {
      this.db.push('return_refunds', {
        return_id: r.id,
        payment_method_id: p.paymentMethodId,
        method_code: p.methodCode,
        method_type: p.methodType,
        amount: p.amount,
        created_at: at,
      });
      if (p.methodType === 'cash') session.cashSales -= p.amount;
    }
    this.db.push('credit_notes', {
      number: this.returnNumber(r.store, 'credit_note'),
      store_id: r.store.id,
      sale_id: r.sale.id,
      invoice_id: r.sale.invoiceId,
      return_id: r.id,
      customer_id: r.sale.customerId,
      currency_code: r.sale.currency,
      amount: sum((l) => l.total),
      net: sum((l) => l.net),
      tax: sum((l) => l.tax),
      on_account: 0,
      issued_at: at,
      created_at: at,
    });
    const returned = new Map(r.lines.map((l) => [l.saleItemId, l]));
    for (const line of r.sale.lines) {
      const l = returned.get(line.id);
      this.db.push('sale_item_return_claims', {
        sale_item_id: line.id,
        sale_id: r.sale.id,
        sold_quantity: line.qty,
        claimed_quantity: l?.qty ?? 0,
        claimed_total: l?.refund.total ?? 0,
        claimed_tax: l?.refund.tax ?? 0,
      });
    }
    counts.returns = (counts.returns ?? 0) + 1;
  }
}
