import { weekdayOf, ZoneCalendar } from './calendar';
import { RollupBatch } from './rollup-batch';
import {
  CASHIERS,
  CUSTOMERS,
  CUSTOMERS_ALL,
  HOURS,
  ITEM_STOCK,
  ITEMS,
  ITEMS_ALL,
  PAYMENTS,
  PRICE_SOURCES,
  SALES,
  SESSION_PAYMENTS,
  SESSIONS,
  STOCK_MOVES,
  TAX,
  WRITE_OFFS,
} from './rollup-tables';

/**
 * Facts to rollup deltas, pure (processed returns: return-deltas.ts). The shapes below are the
 * fields of the sales and catalog facts these functions read (those facts satisfy them
 * structurally). Amounts are minor units.
 *   net sales (revenue) = line total - line tax (what was sold, excluding tax, in either tax mode)
 *   cost (COGS)          = unit cost snapshotted on the line x quantity
 */
export interface SaleFactsInput {
  sale: {
    id: number;
    storeId: number;
    warehouseId: number | null;
    sessionId: number | null;
    userId: number;
    customerId: number | null;
    status: string;
    discountTotal: number;
    totalAmount: number;
    paidAmount: number;
    changeAmount: number;
    balanceDue: number;
    taxExempt: boolean;
    createdAt: Date;
  };
  items: {
    id: number;
    itemId: number;
    quantity: number;
    baseQuantity: number;
    unitCost: number;
    priceSource: string;
    gross: number;
    ruleDiscount: number;
    bundleDiscount: number;
    manualDiscount: number;
    cartDiscount: number;
    taxRateBp: number;
    tax: number;
    total: number;
    warehouseId: number;
  }[];
  payments: { methodCode: string; methodType: string; amount: number; changeAmount: number }[];
}

export interface MovementInput {
  itemId: number;
  warehouseId: number;
  type: string;
  quantity: number;
  createdAt: Date;
}

export interface StoreFacts {
  id: number;
  currencyCode: string;
  timeZone: string;
}

/** The measures of `m` a table keeps. */
export function pick(m: Record<string, number>, keep: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keep) if (k in m) out[k] = m[k];
  return out;
}

const discounts = (l: SaleFactsInput['items'][number]) => l.ruleDiscount + l.bundleDiscount + l.manualDiscount + l.cartDiscount;
const revenue = (l: { total: number; tax: number }) => l.total - l.tax;

/** The tax row of a line: its rate, or the exempt row when its sale was tax-exempt (no rate applied). */
export function taxKey(exempt: boolean, rateBp: number): { exempt: number; rate_bp: number } {
  return exempt ? { exempt: 1, rate_bp: 0 } : { exempt: 0, rate_bp: rateBp };
}

/** The business day and local hour of a sale in its store. */
export function saleDay(f: SaleFactsInput, store: StoreFacts): { day: number; hour: number } {
  return ZoneCalendar.of(store.timeZone).dayAndHour(f.sale.createdAt);
}

/** A recorded sale's measures (sign -1 takes them back out: a void). */
export function addSale(batch: RollupBatch, f: SaleFactsInput, store: StoreFacts, sign: 1 | -1 = 1): void {
  const s = f.sale;
  const { day, hour } = saleDay(f, store);
  const cur = { currency_code: store.currencyCode };
  const wh = s.warehouseId ?? 0;
  const sum = (fn: (l: SaleFactsInput['items'][number]) => number) => f.items.reduce((a, l) => a + fn(l), 0);
  const net = sum(revenue);
  const tax = sum((l) => l.tax);
  const gross = sum((l) => l.gross);
  const where = { day, store_id: s.storeId, warehouse_id: wh };
  const saleMeasures = {
    sales_count: 1,
    units: sum((l) => l.baseQuantity),
    gross,
    discount_rule: sum((l) => l.ruleDiscount),
    discount_bundle: sum((l) => l.bundleDiscount),
    discount_manual: sum((l) => l.manualDiscount),
    discount_cart: sum((l) => l.cartDiscount),
    net,
    tax,
    total: s.totalAmount,
    cost: sum((l) => l.unitCost * l.quantity),
    paid: s.paidAmount,
    change_given: s.changeAmount,
    on_account: s.balanceDue,
    credit_count: s.balanceDue > 0 ? 1 : 0,
    discounted_count: s.discountTotal > 0 ? 1 : 0,
    exempt_count: s.taxExempt ? 1 : 0,
    exempt_net: s.taxExempt ? net : 0,
    customer_count: s.customerId !== null ? 1 : 0,
  };
  batch.add(SALES, where, cur, saleMeasures, sign);
  batch.add(CASHIERS, { ...where, user_id: s.userId }, cur, pick(saleMeasures, CASHIERS.measures), sign);
  const session = s.sessionId ?? 0;
  batch.add(
    SESSIONS,
    { ...where, user_id: s.userId, session_id: session },
    cur,
    { sales_count: 1, gross, discounts: sum(discounts), net, tax, total: s.totalAmount },
    sign,
  );
  for (const p of f.payments) {
    const method = { method_code: p.methodCode };
    const attrs = { ...cur, method_type: p.methodType };
    batch.add(PAYMENTS, { ...where, ...method }, attrs, { payment_count: 1, amount: p.amount, change_given: p.changeAmount }, sign);
    batch.add(
      SESSION_PAYMENTS,
      { ...where, session_id: session, user_id: s.userId, ...method },
      attrs,
      { payment_count: 1, amount: p.amount, change_given: p.changeAmount },
      sign,
    );
  }
  batch.add(HOURS, { ...where, weekday: weekdayOf(day), hour }, cur, { sales_count: 1, net, total: s.totalAmount }, sign);
  for (const l of f.items) {
    const lineKey = { day, store_id: s.storeId, warehouse_id: l.warehouseId };
    const lineMeasures = {
      line_count: 1,
      units: l.baseQuantity,
      gross: l.gross,
      discounts: discounts(l),
      net: revenue(l),
      tax: l.tax,
      total: l.total,
      cost: l.unitCost * l.quantity,
    };
    batch.add(TAX, { ...lineKey, ...taxKey(s.taxExempt, l.taxRateBp) }, cur, { line_count: 1, taxable: revenue(l), tax: l.tax }, sign);
    batch.add(ITEMS, { ...lineKey, item_id: l.itemId }, cur, lineMeasures, sign);
    batch.add(ITEMS_ALL, { day, currency_code: store.currencyCode, item_id: l.itemId }, {}, lineMeasures, sign);
    batch.add(
      PRICE_SOURCES,
      { ...lineKey, price_source: l.priceSource },
      cur,
      { line_count: 1, units: l.baseQuantity, gross: l.gross, discounts: discounts(l), net: revenue(l) },
      sign,
    );
  }
  if (s.customerId !== null) {
    const m = { sales_count: 1, net, total: s.totalAmount, on_account: s.balanceDue };
    batch.add(CUSTOMERS, { ...where, customer_id: s.customerId }, cur, m, sign);
    batch.add(CUSTOMERS_ALL, { day, currency_code: store.currencyCode, customer_id: s.customerId }, {}, m, sign);
  }
}

/** What a void adds on the sale's own day and keys: the void counted, its money. */
export function addVoidMeasures(batch: RollupBatch, f: SaleFactsInput, store: StoreFacts): void {
  const s = f.sale;
  const { day } = saleDay(f, store);
  const where = { day, store_id: s.storeId, warehouse_id: s.warehouseId ?? 0 };
  const cur = { currency_code: store.currencyCode };
  const voidMeasures = {
    void_count: 1,
    void_total: s.totalAmount,
    void_net: f.items.reduce((a, l) => a + revenue(l), 0),
    void_on_account: s.balanceDue,
    void_credit_count: s.balanceDue > 0 ? 1 : 0,
  };
  batch.add(SALES, where, cur, voidMeasures);
  batch.add(CASHIERS, { ...where, user_id: s.userId }, cur, pick(voidMeasures, CASHIERS.measures));
  batch.add(SESSIONS, { ...where, user_id: s.userId, session_id: s.sessionId ?? 0 }, cur, { void_count: 1, void_total: s.totalAmount });
  for (const p of f.payments) {
    batch.add(PAYMENTS, { ...where, method_code: p.methodCode }, { ...cur, method_type: p.methodType }, { void_count: 1, void_amount: p.amount });
  }
}

/** A void: the sale's measures out of its day, the void in. */
export function addVoid(batch: RollupBatch, f: SaleFactsInput, store: StoreFacts): void {
  addSale(batch, f, store, -1);
  addVoidMeasures(batch, f, store);
}

/** A sale as it stands now (rebuilding): a voided sale counts only as a void. */
export function addSaleAsItStands(batch: RollupBatch, f: SaleFactsInput, store: StoreFacts): void {
  if (f.sale.status === 'voided') addVoidMeasures(batch, f, store);
  else addSale(batch, f, store);
}

/** Stock movements: per warehouse and type, and per item. `zoneOf` gives a warehouse's calendar. */
export function addMovements(batch: RollupBatch, movements: MovementInput[], zoneOf: (warehouseId: number) => ZoneCalendar): void {
  for (const m of movements) {
    const day = zoneOf(m.warehouseId).dayOf(m.createdAt);
    if (m.type === 'damage' || m.type === 'spoilage')
      batch.add(
        WRITE_OFFS,
        { day, warehouse_id: m.warehouseId, item_id: m.itemId },
        {},
        m.type === 'damage' ? { damaged_qty: -m.quantity } : { spoiled_qty: -m.quantity },
      );
    batch.add(
      STOCK_MOVES,
      { day, warehouse_id: m.warehouseId, move_type: m.type },
      {},
      {
        movements: 1,
        qty_in: Math.max(m.quantity, 0),
        qty_out: Math.max(-m.quantity, 0),
      },
    );
    batch.add(
      ITEM_STOCK,
      { day, warehouse_id: m.warehouseId, item_id: m.itemId },
      {},
      {
        net_qty: m.quantity,
        sold_qty: m.type === 'sale' ? -m.quantity : 0,
      },
    );
  }
}

/** (warehouse, item, day) of each line of a sale: candidates for the last-sale day. */
export function lastSaleCandidates(f: SaleFactsInput, store: StoreFacts): { warehouseId: number; itemId: number; day: number }[] {
  const { day } = saleDay(f, store);
  const seen = new Map<string, { warehouseId: number; itemId: number; day: number }>();
  for (const l of f.items) if (l.baseQuantity > 0) seen.set(`${l.warehouseId}:${l.itemId}`, { warehouseId: l.warehouseId, itemId: l.itemId, day });
  return [...seen.values()];
}
