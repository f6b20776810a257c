import { DataSource, QueryRunner } from 'typeorm';
import { canRestock, lineRefund, LineRefund, NO_CLAIMS, refundableTenders, RefundPart, ReturnCondition, splitRefund, stockAction } from '@pos/returns';
import { booksBeforeTax } from '@pos/pricing';

/**
 * `seed:volume`: a realistic year of trading for benchmarks, written straight into the tables
 * with multi-row INSERTs (a benchmark seeder, not a use case: going through checkout would take
 * hours for a million sales). On top of the demo data it adds a third store (Berlin, EUR, prices
 * including VAT), cashiers, customers and items, then day by day: cashier sessions, sales with
 * their lines (price sources, rule / manual / cart discounts, tax per line half away from zero),
 * payments (cash with change, card, splits, on account), invoices (on-account ones paid later,
 * partly, or still open), voids, and the stock ledger (sales, voids, weekly deliveries, damage and
 * spoilage) with stock levels equal to the sum of their movements, and returns: about 2.5% of the
 * sales paid at the till come back 1 to 14 days later, whole or in part, with the returns
 * context's own rules for the refund per line (lineRefund), where it goes (cash first:
 * splitRefund) and what becomes of the goods (stockAction: restocked, or in and written off).
 * Deterministic for a given --seed.
 */
export interface VolumeOptions {
  sales: number;
  items: number;
  customers: number;
  days: number;
  seed: number;
  log: (message: string) => void;
}

/** Share of the sales paid at the till that come back (on-account sales are left alone: their invoices age). */
const RETURN_RATE = 0.025;
/** What returned goods come back as, with their weights: most go back on the shelf. */
const RETURN_CONDITION_WEIGHTS: [condition: ReturnCondition, weight: number][] = [
  ['resellable', 0.8],
  ['opened', 0.07],
  ['damaged', 0.06],
  ['defective', 0.04],
  ['spoiled', 0.03],
];

/** A return decided when its sale is written, recorded on the day it is processed (in that day's session). */
interface PlannedReturn {
  id: number;
  store: Store;
  sale: { id: number; receiptNumber: string; customerId: number | null; currency: string; invoiceId: number; lines: { id: number; qty: number }[] };
  at: Date;
  reason: string;
  lines: { saleItemId: number; item: Item; qty: number; wh: number; condition: ReturnCondition; restock: boolean; refund: LineRefund }[];
  refunds: RefundPart[];
}

interface Store {
  id: number;
  code: string;
  tz: string;
  inclusive: boolean;
  warehouseId: number;
  share: number;
  cashiers: number[];
  rates: Record<string, number>;
}

interface Item {
  id: number;
  sku: string;
  name: string;
  price: number;
  cost: number;
  taxClass: string;
  serial: boolean;
}

const DAY = 86_400_000;

/** mulberry32: small, fast, deterministic. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `total` split in proportion to `weights`, the parts summing exactly to it. */
function largestRemainder(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, w) => a + w, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const parts = exact.map(Math.floor);
  let left = total - parts.reduce((a, p) => a + p, 0);
  for (const i of exact
    .map((e, i) => ({ i, r: e - Math.floor(e) }))
    .sort((a, b) => b.r - a.r || a.i - b.i)
    .map((x) => x.i)) {
    if (left-- <= 0) break;
    parts[i]++;
  }
  return parts;
}

/** Half away from zero of a non-negative rational. */
const roundDiv = (num: number, den: number) => Math.floor((2 * num + den) / (2 * den));

export class VolumeSeeder {
  private qr!: QueryRunner;
  private mysql = false;
  private rand = rng(1);
  private readonly buffers = new Map<string, { cols: string[]; rows: unknown[][] }>();

  constructor(private readonly ds: DataSource) {}

  async run(o: VolumeOptions): Promise<Record<string, number>> {
    this.rand = rng(o.seed);
    this.mysql = this.ds.options.type === 'mysql';
    this.qr = this.ds.createQueryRunner();
    await this.qr.connect();
    const counts: Record<string, number> = {};
    try {
      if (this.mysql) await this.qr.query('SET foreign_key_checks = 0, unique_checks = 0');
      const existing = Number((await this.qr.query('SELECT COUNT(*) AS n FROM sales'))[0].n);
      if (existing > 0) throw new Error(`the database already has ${existing} sales: seed:volume fills an empty (demo) database`);
      const ref = await this.reference(o);
      counts.items = ref.items.length;
      counts.customers = ref.customers.length;
      await this.trading(o, ref, counts);
    } finally {
      if (this.mysql) await this.qr.query('SET foreign_key_checks = 1, unique_checks = 1').catch(() => undefined);
      await this.qr.release();
    }
    return counts;
  }

  // ---- reference data: a third store, cashiers, customers, items, stock ---------------------------------

  private async reference(o: VolumeOptions) {
    const now = new Date();
    const ts = { created_at: this.dt(now), updated_at: this.dt(now) };
    const one = async (sql: string, params: unknown[] = []) => (await this.qr.query(sql, params))[0] as Record<string, unknown> | undefined;
    const id = async (sql: string, params: unknown[] = []) => Number((await one(sql, params))?.id);

    // Berlin: EUR, prices include VAT (19% standard, 7% food), its own warehouse.
    let be = await id("SELECT id FROM stores WHERE code = 'BE'");
    if (!be) {
      await this.insertRow('stores', {
        name: 'Berlin Store',
        code: 'BE',
        address: 'Friedrichstrasse 1, Berlin',
        currency_code: 'EUR',
        timezone: 'Europe/Berlin',
        prices_include_tax: 1,
        allow_negative_stock: 0,
        is_active: 1,
        ...ts,
      });
      be = await id("SELECT id FROM stores WHERE code = 'BE'");
      await this.insertRow('warehouses', { store_id: be, name: 'Berlin Floor', code: 'BE-MAIN', is_active: 1, ...ts });
      const wh = await id("SELECT id FROM warehouses WHERE code = 'BE-MAIN'");
      await this.qr.query('UPDATE stores SET default_warehouse_id = ? WHERE id = ?', [wh, be]);
      for (const pm of (await this.qr.query('SELECT id FROM payment_methods')) as { id: number }[]) {
        await this.insertRow('store_payment_methods', { store_id: be, payment_method_id: Number(pm.id) });
      }
      const cls = async (code: string) => id('SELECT id FROM tax_classes WHERE code = ?', [code]);
      await this.insertRow('tax_rates', { tax_class_id: await cls('standard'), store_id: be, name: 'MwSt 19%', rate_bp: 1900, is_active: 1, ...ts });
      await this.insertRow('tax_rates', { tax_class_id: await cls('reduced'), store_id: be, name: 'MwSt 7%', rate_bp: 700, is_active: 1, ...ts });
    }
    const storeRows = (await this.qr.query(
      "SELECT s.id, s.code, s.timezone, s.prices_include_tax, s.default_warehouse_id FROM stores s WHERE s.code IN ('DT', 'AP', 'BE') ORDER BY s.id",
    )) as Record<string, unknown>[];
    const rates = (await this.qr.query(
      'SELECT r.store_id, r.rate_bp, c.code FROM tax_rates r JOIN tax_classes c ON c.id = r.tax_class_id WHERE r.is_active = 1',
    )) as Record<string, unknown>[];
    const shares: Record<string, number> = { DT: 0.45, AP: 0.35, BE: 0.2 };
    const cashierRole = await id("SELECT id FROM roles WHERE slug = 'cashier'");
    const hash = String((await one("SELECT password_hash FROM users WHERE email = 'cashier@example.com'"))?.password_hash ?? '');
    const stores: Store[] = [];
    for (const s of storeRows) {
      const storeId = Number(s.id);
      const code = String(s.code);
      const cashiers: number[] = [];
      for (let k = 1; k <= 4; k++) {
        const email = `cashier${k}.${code.toLowerCase()}@volume.example.com`;
        let uid = await id('SELECT id FROM users WHERE email = ?', [email]);
        if (!uid) {
          await this.insertRow('users', {
            name: `Cashier ${k} ${code}`,
            email,
            password_hash: hash,
            role_id: cashierRole,
            default_store_id: storeId,
            is_api_application: 0,
            is_active: 1,
            ...ts,
          });
          uid = await id('SELECT id FROM users WHERE email = ?', [email]);
          await this.insertRow('user_stores', { user_id: uid, store_id: storeId });
        }
        cashiers.push(uid);
      }
      const rateOf = (cls: string) => {
        const own = rates.find((r) => Number(r.store_id) === storeId && r.code === cls);
        const general = rates.find((r) => r.store_id === null && r.code === cls);
        return Number((own ?? general)?.rate_bp ?? 0);
      };
      stores.push({
        id: storeId,
        code,
        tz: String(s.timezone),
        inclusive: Boolean(Number(s.prices_include_tax)),
        warehouseId: Number(s.default_warehouse_id),
        share: shares[code] ?? 0.1,
        cashiers,
        rates: { standard: rateOf('standard'), reduced: rateOf('reduced'), zero: rateOf('zero') },
      });
    }

    // Customers: demo ones plus generated ones (terms 30 days).
    const group = await id("SELECT id FROM customer_groups WHERE code = 'retail'");
    const haveCustomers = Number((await one("SELECT COUNT(*) AS n FROM customers WHERE email LIKE '%@customers.volume.example.com'"))?.n ?? 0);
    for (let c = haveCustomers + 1; c <= o.customers; c++) {
      this.push('customers', {
        name: `Customer ${String(c).padStart(5, '0')}`,
        email: `customer${c}@customers.volume.example.com`,
        phone: `+1 555 ${String(100000 + c).slice(-6)}`,
        customer_group_id: group,
        store_id: stores[c % stores.length].id,
        is_walk_in: 0,
        status: 'active',
        payment_terms_days: 30,
        ...ts,
      });
    }
    await this.flushAll();
    const customers = ((await this.qr.query('SELECT id FROM customers WHERE is_walk_in = 0 AND deleted_at IS NULL ORDER BY id')) as { id: number }[]).map((r) =>
      Number(r.id),
    );

    // Items: the demo's plus generated ones across the demo categories, with opening stock everywhere.
    const categories = ((await this.qr.query('SELECT id FROM categories ORDER BY id')) as { id: number }[]).map((r) => Number(r.id));
    const taxClasses = (await this.qr.query('SELECT id, code FROM tax_classes')) as { id: number; code: string }[];
    const classId = (code: string) => Number(taxClasses.find((t) => t.code === code)?.id);
    const haveItems = Number((await one("SELECT COUNT(*) AS n FROM items WHERE sku LIKE 'VOL-%'"))?.n ?? 0);
    const demoItems = Number((await one("SELECT COUNT(*) AS n FROM items WHERE sku NOT LIKE 'VOL-%'"))?.n ?? 0);
    for (let k = haveItems + 1; k <= o.items - demoItems; k++) {
      const price = 99 + Math.floor(this.rand() * this.rand() * 4900);
      const cls = this.rand() < 0.45 ? 'reduced' : this.rand() < 0.97 ? 'standard' : 'zero';
      this.push('items', {
        sku: `VOL-${String(k).padStart(5, '0')}`,
        name: `Volume item ${k}`,
        category_id: categories[k % categories.length],
        base_price: price,
        cost: Math.round(price * (0.35 + this.rand() * 0.3)),
        tax_class_id: classId(cls),
        base_unit: 'each',
        is_active: 1,
        is_serial_tracked: 0,
        reorder_level: 5 + Math.floor(this.rand() * 20),
        reorder_quantity: 20 + Math.floor(this.rand() * 60),
        ...ts,
      });
    }
    await this.flushAll();
    const itemRows = (await this.qr.query(
      'SELECT i.id, i.sku, i.name, i.base_price, i.cost, i.is_serial_tracked, c.code AS tax FROM items i LEFT JOIN tax_classes c ON c.id = i.tax_class_id WHERE i.is_active = 1 AND i.deleted_at IS NULL ORDER BY i.id',
    )) as Record<string, unknown>[];
    const items: Item[] = itemRows
      .filter((r) => Number(r.base_price) > 0)
      .map((r) => ({
        id: Number(r.id),
        sku: String(r.sku),
        name: String(r.name),
        price: Number(r.base_price),
        cost: Number(r.cost),
        taxClass: String(r.tax ?? 'standard'),
        serial: Boolean(Number(r.is_serial_tracked)),
      }))
      .filter((i) => !i.serial);
    // Popularity: a long tail (Zipf-like), shuffled so it does not follow the ids.
    const order = items.map((_, i) => i).sort(() => this.rand() - 0.5);
    const weights = order.map((_, rank) => 1 / (rank + 3) ** 0.9);
    const cumulative: number[] = [];
    weights.reduce((a, w, i) => (cumulative[i] = a + w), 0);
    const warehouses = ((await this.qr.query('SELECT id FROM warehouses ORDER BY id')) as { id: number }[]).map((r) => Number(r.id));
    const central = await id("SELECT id FROM warehouses WHERE code = 'CENTRAL'");
    return {
      stores,
      customers,
      items,
      order,
      cumulative,
      warehouses,
      central,
      managerId: await id("SELECT id FROM users WHERE email = 'manager@example.com'"),
    };
  }

  // ---- a year of trading -------------------------------------------------------------------------

  private async trading(o: VolumeOptions, ref: Awaited<ReturnType<VolumeSeeder['reference']>>, counts: Record<string, number>) {
    const { stores, customers, items, order, cumulative, central } = ref;
    const now = new Date();
    const next = async (table: string) => Number((await this.qr.query(`SELECT COALESCE(MAX(id), 0) AS n FROM ${table}`))[0].n) + 1;
    let saleId = await next('sales');
    let lineId = await next('sale_items');
    let paymentId = await next('sale_payments');
    let invoiceId = await next('invoices');
    let sessionId = await next('cashier_sessions');
    const receipt = new Map<number, number>(stores.map((s) => [s.id, 0]));
    for (const r of (await this.qr.query('SELECT store_id, last_number FROM receipt_counters')) as Record<string, unknown>[])
      receipt.set(Number(r.store_id), Number(r.last_number));

    // Stock: running balance per item x warehouse, from what is there now.
    const balance = new Map<string, number>();
    for (const r of (await this.qr.query('SELECT item_id, warehouse_id, quantity FROM stock_levels')) as Record<string, unknown>[])
      balance.set(`${r.item_id}:${r.warehouse_id}`, Number(r.quantity));
    const hadLevel = new Set(balance.keys());
    const move = (itemId: number, warehouseId: number, type: string, qty: number, at: Date, refType: string, refId: string, cost: number | null) => {
      const key = `${itemId}:${warehouseId}`;
      const after = (balance.get(key) ?? 0) + qty;
      balance.set(key, after);
      this.push('stock_movements', {
        item_id: itemId,
        warehouse_id: warehouseId,
        type,
        quantity: qty,
        balance_after: after,
        unit_cost: cost,
        reference_type: refType,
        reference_id: refId,
        user_id: null,
        notes: null,
        created_at: this.dt(at),
      });
      counts.stock_movements = (counts.stock_movements ?? 0) + 1;
    };
    const pickItem = () => {
      const x = this.rand() * cumulative[cumulative.length - 1];
      let lo = 0;
      let hi = cumulative.length - 1;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (cumulative[mid] < x) lo = mid + 1;
        else hi = mid;
      }
      return items[order[lo]];
    };

    // Sales per day (the `days` days before today): weekday and season weights, split exactly.
    const firstDay = Math.floor(now.getTime() / DAY) - o.days;
    const weekdayWeight = [0.8, 0.9, 0.9, 1, 1, 1.2, 1.3]; // Sun..Sat
    const dayWeights: number[] = [];
    for (let d = 0; d < o.days; d++) {
      const date = new Date((firstDay + d) * DAY);
      const season = date.getUTCMonth() === 11 ? 1.3 : date.getUTCMonth() === 0 ? 0.85 : 1;
      dayWeights.push(weekdayWeight[date.getUTCDay()] * season * (0.9 + this.rand() * 0.2));
    }
    const dayTargets = largestRemainder(o.sales, dayWeights);
    const hourWeights = [0, 0, 0, 0, 0, 0, 0, 0.2, 0.6, 0.8, 0.9, 1.1, 1.6, 1.5, 1.0, 0.9, 1.0, 1.4, 1.5, 1.1, 0.7, 0.3, 0, 0];
    const hourSum = hourWeights.reduce((a, w) => a + w, 0);
    // Expected units a week of the item at position k of `items` in a store (1.9 lines a sale, 1.4 units a line).
    const rankOf = new Map(order.map((itemIndex, rank) => [itemIndex, rank]));
    const totalWeight = cumulative[cumulative.length - 1];
    const weeklyDemand = (k: number, store: Store) => {
      const rank = rankOf.get(k) ?? 0;
      const w = (cumulative[rank] - (rank ? cumulative[rank - 1] : 0)) / totalWeight;
      return (o.sales / o.days) * store.share * 1.9 * 1.4 * 7 * w;
    };
    const openInvoices: { id: number; createdAt: Date; due: Date; amount: number; balance: number }[] = [];
    let returnId = await next('sale_returns');
    this.managerId = ref.managerId;
    for (const r of (await this.qr.query('SELECT id, code FROM return_reasons')) as Record<string, unknown>[]) this.reasonIds.set(String(r.code), Number(r.id));
    for (const r of (await this.qr.query('SELECT store_id, kind, last_number FROM return_counters')) as Record<string, unknown>[])
      this.returnNumbers.set(`${r.store_id}:${r.kind}`, Number(r.last_number));
    const returnsDue = new Map<number, PlannedReturn[]>();

    for (let d = 0; d < o.days; d++) {
      const dayStart = (firstDay + d) * DAY;
      const storeTargets = largestRemainder(
        dayTargets[d],
        stores.map((s) => s.share),
      );
      const weekly = new Date(dayStart).getUTCDay() === 1 || d === 0;
      for (const [storeIndex, store] of stores.entries()) {
        const offset = this.offsetMs(store.tz, dayStart + 12 * 3_600_000);
        const localMidnight = dayStart - offset;
        // Deliveries: Mondays 06:00 local (and on day 1), topping every item up for the week ahead.
        if (weekly) {
          for (const [k, item] of items.entries()) {
            const wh = store.warehouseId;
            const have = balance.get(`${item.id}:${wh}`) ?? 0;
            const want = Math.max(20, Math.ceil(1.6 * weeklyDemand(k, store)));
            if (have < want) move(item.id, wh, 'receive', want - have, new Date(localMidnight + 6 * 3_600_000), 'purchase', `PO-${d}-${wh}`, item.cost);
          }
          if (store === stores[0]) {
            for (const item of items) {
              const have = balance.get(`${item.id}:${central}`) ?? 0;
              if (have < 150)
                move(item.id, central, 'receive', 200 - have, new Date(localMidnight + 5 * 3_600_000), 'purchase', `PO-${d}-${central}`, item.cost);
            }
          }
        }
        // A few write-offs a day.
        for (let k = 0; k < 2; k++) {
          if (this.rand() < 0.6) {
            const item = pickItem();
            move(
              item.id,
              store.warehouseId,
              this.rand() < 0.6 ? 'damage' : 'spoilage',
              -1,
              new Date(localMidnight + 20 * 3_600_000),
              'adjustment',
              `ADJ-${d}-${store.id}-${k}`,
              item.cost,
            );
          }
        }

        // Three sessions a day: 08:00-21:00 local, cashiers rotating.
        const sessions = [0, 1, 2].map((k) => ({
          id: sessionId++,
          userId: store.cashiers[(d + k) % store.cashiers.length],
          cashSales: 0,
          opening: 200_00,
        }));
        for (const r of returnsDue.get(d) ?? []) if (r.store === store) this.recordReturn(r, sessions[r.id % 3], move, counts);
        const count = storeTargets[storeIndex];
        for (let n = 0; n < count; n++) {
          let hx = this.rand() * hourSum;
          let hour = 0;
          while (hour < 21 && hx > hourWeights[hour]) hx -= hourWeights[hour++];
          const at = new Date(localMidnight + hour * 3_600_000 + Math.floor(this.rand() * 3_600_000));
          const session = sessions[n % 3];
          const id = saleId++;
          const number = (receipt.get(store.id) ?? 0) + 1;
          receipt.set(store.id, number);
          const customer = this.rand() < 0.2 ? customers[Math.floor(this.rand() * this.rand() * customers.length)] : null;
          const cartDiscount = this.rand() < 0.03 ? 500 : 0; // 5% in bp
          const lineCount = 1 + Math.floor(-Math.log(1 - this.rand() * 0.999) * 1.6);
          const used = new Set<number>();
          let subtotal = 0;
          let discountTotal = 0;
          let taxTotal = 0;
          let total = 0;
          const lines: { wh: number; item: Item; qty: number }[] = [];
          const lineRows: Record<string, unknown>[] = [];
          const centralLine = store.code !== 'BE' && this.rand() < 0.02;
          const saleWarehouses = new Set<number>();
          for (let l = 0; l < Math.min(lineCount, 8); l++) {
            const item = pickItem();
            if (used.has(item.id)) continue;
            used.add(item.id);
            const qty = this.rand() < 0.8 ? 1 : 2 + Math.floor(this.rand() * 3);
            const wh = centralLine && l === 0 ? central : store.warehouseId;
            saleWarehouses.add(wh);
            const r = this.rand();
            const source = r < 0.05 ? 'pricing_rule' : r < 0.11 ? 'price_book' : r < 0.13 ? 'manual' : r < 0.14 ? 'bundle' : r < 0.145 ? 'offline' : 'base';
            const unitPrice = source === 'price_book' ? Math.round(item.price * 0.92) : item.price;
            const gross = unitPrice * qty;
            const ruleDiscount = source === 'pricing_rule' ? roundDiv(gross * 1000, 10000) : 0;
            const bundleDiscount = source === 'bundle' ? roundDiv(gross * 500, 10000) : 0;
            const manualDiscount = source === 'manual' ? roundDiv(gross * 1000, 10000) : 0;
            const afterLine = gross - ruleDiscount - bundleDiscount - manualDiscount;
            const cart = cartDiscount ? roundDiv(afterLine * cartDiscount, 10000) : 0;
            const net = afterLine - cart;
            const rate = store.rates[item.taxClass] ?? 0;
            const tax = store.inclusive ? roundDiv(net * rate, 10000 + rate) : roundDiv(net * rate, 10000);
            const lineTotal = store.inclusive ? net : net + tax;
            // the records keep the books: amounts before tax in either tax mode
            const books = booksBeforeTax({ gross, ruleDiscount, bundleDiscount, manualDiscount, cartDiscount: cart }, rate, store.inclusive);
            subtotal += books.gross;
            discountTotal += books.gross - books.net;
            taxTotal += tax;
            total += lineTotal;
            lineRows.push({
              id: lineId++,
              sale_id: id,
              line_no: lines.length,
              item_id: item.id,
              sku: item.sku,
              name: item.name,
              factor: 1,
              quantity: qty,
              base_quantity: qty,
              base_price: item.price,
              unit_price: unitPrice,
              unit_cost: item.cost,
              price_source: source,
              gross: books.gross,
              rule_discount: books.ruleDiscount,
              bundle_discount: books.bundleDiscount,
              manual_discount: books.manualDiscount,
              cart_discount: books.cartDiscount,
              discount_reason: manualDiscount || cart ? 'volume seed' : null,
              net: books.net,
              tax_rate_bp: rate,
              tax,
              tax_exempted: 0,
              total: lineTotal,
              warehouse_id: wh,
              returned_quantity: 0,
            });
            lines.push({ wh, item, qty });
          }
          // Payments: card, cash with change, a split, or on account (needs a customer).
          const r = this.rand();
          const onAccount = customer !== null && r < 0.15 ? total : 0;
          const tenders: { code: string; type: string; amount: number; tendered: number | null; change: number }[] = [];
          if (onAccount) tenders.push({ code: 'on_account', type: 'on_account', amount: total, tendered: null, change: 0 });
          else if (r < 0.2) {
            const card = Math.floor(total / 2);
            const cashDue = total - card;
            const tendered = Math.ceil(cashDue / 500) * 500;
            tenders.push(
              { code: 'card', type: 'card', amount: card, tendered: null, change: 0 },
              { code: 'cash', type: 'cash', amount: cashDue, tendered, change: tendered - cashDue },
            );
          } else if (r < 0.6) {
            const tendered = Math.ceil(total / 500) * 500;
            tenders.push({ code: 'cash', type: 'cash', amount: total, tendered, change: tendered - total });
          } else tenders.push({ code: 'card', type: 'card', amount: total, tendered: null, change: 0 });
          for (const t of tenders) {
            this.push('sale_payments', {
              id: paymentId++,
              sale_id: id,
              payment_method_id: await this.methodId(t.code),
              method_code: t.code,
              method_type: t.type,
              amount: t.amount,
              tendered: t.tendered,
              change_amount: t.change,
              reference: null,
              created_at: this.dt(at),
            });
            if (t.type === 'cash') session.cashSales += t.amount;
          }
          const voided = this.rand() < 0.005;
          const voidedAt = new Date(at.getTime() + 5 * 60_000);
          const change = tenders.reduce((a, t) => a + t.change, 0);
          const receiptNumber = `${store.code}-${String(number).padStart(6, '0')}`;
          const returnDay = d + 1 + Math.floor(this.rand() * 14);
          const planned =
            !voided && !onAccount && returnDay < o.days && this.rand() < RETURN_RATE
              ? await this.planReturn(returnId++, store, { id, receiptNumber, customer, invoiceId, tenders, lineRows, lines }, (firstDay + returnDay) * DAY)
              : null;
          if (planned) {
            const due = returnsDue.get(returnDay) ?? [];
            due.push(planned);
            returnsDue.set(returnDay, due);
          }
          for (const row of lineRows) this.push('sale_items', row);
          this.push('sales', {
            id,
            store_id: store.id,
            warehouse_id: saleWarehouses.size === 1 ? [...saleWarehouses][0] : null,
            session_id: session.id,
            user_id: session.userId,
            customer_id: customer,
            receipt_number: receiptNumber,
            status: voided ? 'voided' : planned ? (lineRows.every((l) => l.returned_quantity === l.quantity) ? 'refunded' : 'partially_refunded') : 'completed',
            subtotal,
            discount_total: discountTotal,
            tax_total: taxTotal,
            total_amount: total,
            prices_include_tax: store.inclusive ? 1 : 0,
            paid_amount: total - onAccount,
            change_amount: change,
            balance_due: onAccount,
            currency_code: store.code === 'BE' ? 'EUR' : 'USD',
            reference: null,
            idempotency_key: `volume-${id}`,
            tax_exempt: 0,
            tax_exempt_reason: null,
            offline_created_at: null,
            voided_at: voided ? this.dt(voidedAt) : null,
            voided_by: voided ? ref.managerId : null,
            void_reason: voided ? 'customer changed their mind' : null,
            created_at: this.dt(at),
            updated_at: this.dt(voided ? voidedAt : planned ? planned.at : at),
          });
          if (voided) for (const t of tenders) if (t.type === 'cash') session.cashSales -= t.amount;
          const due = new Date(at.getTime() + 30 * DAY);
          const invoice = {
            id: invoiceId++,
            sale_id: id,
            store_id: store.id,
            customer_id: customer,
            number: `INV-${store.code}-${String(number).padStart(6, '0')}`,
            status: voided ? 'void' : onAccount ? 'issued' : 'paid',
            issued_at: this.dt(at),
            due_at: this.dt(due),
            amount: total,
            paid: total - onAccount,
            balance: voided ? 0 : onAccount,
            credited: planned ? planned.lines.reduce((a, l) => a + l.refund.total, 0) : 0,
            created_at: this.dt(at),
            updated_at: this.dt(planned ? planned.at : at),
          };
          // A credit note for all of it credits the invoice; a part leaves it paid.
          if (planned && invoice.credited >= total) invoice.status = 'credited';
          if (onAccount && !voided) {
            // Paid later: most by the due date, some in part, the recent ones not yet.
            const p = this.rand();
            const payAt = new Date(at.getTime() + (10 + Math.floor(this.rand() * 40)) * DAY);
            if (payAt < now && p < 0.85) {
              this.push('invoice_payments', {
                invoice_id: invoice.id,
                payment_method_id: await this.methodId('card'),
                method_code: 'card',
                amount: onAccount,
                reference: null,
                user_id: ref.managerId,
                created_at: this.dt(payAt),
              });
              Object.assign(invoice, { status: 'paid', paid: total, balance: 0, updated_at: this.dt(payAt) });
            } else if (payAt < now && p < 0.92) {
              const part = Math.floor(onAccount / 2);
              this.push('invoice_payments', {
                invoice_id: invoice.id,
                payment_method_id: await this.methodId('cash'),
                method_code: 'cash',
                amount: part,
                reference: null,
                user_id: ref.managerId,
                created_at: this.dt(payAt),
              });
              Object.assign(invoice, { status: 'partially_paid', paid: total - onAccount + part, balance: onAccount - part, updated_at: this.dt(payAt) });
            }
            if (invoice.balance > 0) openInvoices.push({ id: invoice.id, createdAt: at, due, amount: total, balance: invoice.balance });
          }
          this.push('invoices', invoice);
          for (const l of lines) {
            move(l.item.id, l.wh, 'sale', -l.qty, at, 'sale', String(id), l.item.cost);
            if (voided) move(l.item.id, l.wh, 'void', l.qty, voidedAt, 'sale_void', String(id), l.item.cost);
          }
          counts.sales = (counts.sales ?? 0) + 1;
          if (counts.sales % 50_000 === 0) o.log(`sales: ${counts.sales}`);
        }
        for (const [k, s] of sessions.entries()) {
          const opened = new Date(localMidnight + (8 + k * 0.1) * 3_600_000);
          const expected = s.opening + s.cashSales;
          const discrepancy = this.rand() < 0.9 ? 0 : Math.round((this.rand() - 0.5) * 1000);
          this.push('cashier_sessions', {
            id: s.id,
            user_id: s.userId,
            store_id: store.id,
            status: 'closed',
            live_key: null,
            opening_balance: s.opening,
            closing_balance: expected + discrepancy,
            expected_cash: expected,
            discrepancy,
            opened_at: this.dt(opened),
            closed_at: this.dt(new Date(localMidnight + 21 * 3_600_000)),
            created_at: this.dt(opened),
            updated_at: this.dt(opened),
          });
        }
      }
      if (this.pending() > 40_000) await this.flushAll();
    }
    await this.flushAll();
    counts.open_invoices = openInvoices.length;

    // Stock levels = the sum of their movements; receipt counters follow the numbers used.
    for (const [key, qty] of balance) {
      const [itemId, warehouseId] = key.split(':').map(Number);
      if (hadLevel.has(key)) await this.qr.query('UPDATE stock_levels SET quantity = ? WHERE item_id = ? AND warehouse_id = ?', [qty, itemId, warehouseId]);
      else this.push('stock_levels', { item_id: itemId, warehouse_id: warehouseId, quantity: qty, reorder_level: null, updated_at: this.dt(now) });
    }
    await this.flushAll();
    for (const [storeId, n] of receipt) {
      await this.qr.query('DELETE FROM receipt_counters WHERE store_id = ?', [storeId]);
      await this.qr.query('INSERT INTO receipt_counters (store_id, last_number) VALUES (?, ?)', [storeId, n]);
    }
    for (const [key, n] of this.returnNumbers) {
      const [storeId, kind] = key.split(':');
      await this.qr.query('DELETE FROM return_counters WHERE store_id = ? AND kind = ?', [Number(storeId), kind]);
      await this.qr.query('INSERT INTO return_counters (store_id, kind, last_number) VALUES (?, ?, ?)', [Number(storeId), kind, n]);
    }
  }

  // ---- returns ------------------------------------------------------------------------------------

  /**
   * A return of a sale paid at the till, decided as the sale is written (so the sale, its lines
   * and its invoice are written as they end up): all of it, or some units of one line, each
   * line's refund as the returns context computes it, refunded cash first.
   */
  private async planReturn(
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
    for (const t of sale.tenders) paid.push({ paymentMethodId: await this.methodId(t.code), methodCode: t.code, methodType: t.type, amount: t.amount });
    const total = lines.reduce((a, l) => a + l.refund.total, 0);
    const localMidnight = dayStart - this.offsetMs(store.tz, dayStart + 12 * 3_600_000);
    const at = new Date(Math.min(localMidnight + (9 + this.rand() * 11) * 3_600_000, Date.now() - 60_000));
    const broken = lines.some((l) => !l.restock);
    return {
      id,
      store,
      sale: {
        id: sale.id,
        receiptNumber: sale.receiptNumber,
        customerId: sale.customer,
        currency: store.code === 'BE' ? 'EUR' : 'USD',
        invoiceId: sale.invoiceId,
        lines: sale.lineRows.map((r) => ({ id: Number(r.id), qty: Number(r.quantity) })),
      },
      at,
      reason: broken ? (this.rand() < 0.6 ? 'damaged' : 'defective') : this.rand() < 0.6 ? 'changed_mind' : this.rand() < 0.7 ? 'wrong_item' : 'other',
      lines,
      refunds: splitRefund(total, refundableTenders(paid, [], 0)),
    };
  }

  private readonly returnNumbers = new Map<string, number>();
  private managerId = 0;
  private reasonIds = new Map<string, number>();

  /** The next number of a store's returns or credit notes (RET-DT-000001, CN-DT-000001). */
  private returnNumber(store: Store, kind: 'return' | 'credit_note'): string {
    const key = `${store.id}:${kind}`;
    const n = (this.returnNumbers.get(key) ?? 0) + 1;
    this.returnNumbers.set(key, n);
    return `${kind === 'return' ? 'RET' : 'CN'}-${store.code}-${String(n).padStart(6, '0')}`;
  }

  /**
   * A planned return processed at the till on its day, in one of the store's sessions: the
   * return (approved by the manager, processed by the session's cashier), its lines, refunds,
   * the credit note on the sale's invoice, the sale lines' claims, the goods back (restocked, or
   * in and written off) and the cash refunded out of the session's drawer.
   */
  private recordReturn(
    r: PlannedReturn,
    session: { id: number; userId: number; cashSales: number },
    move: (itemId: number, warehouseId: number, type: string, qty: number, at: Date, refType: string, refId: string, cost: number | null) => void,
    counts: Record<string, number>,
  ): void {
    const sum = (pick: (l: LineRefund) => number) => r.lines.reduce((a, l) => a + pick(l.refund), 0);
    const warehouses = [...new Set(r.lines.map((l) => l.wh))];
    const at = this.dt(r.at);
    this.push('sale_returns', {
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
      this.push('sale_return_items', {
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
      this.push('return_refunds', {
        return_id: r.id,
        payment_method_id: p.paymentMethodId,
        method_code: p.methodCode,
        method_type: p.methodType,
        amount: p.amount,
        created_at: at,
      });
      if (p.methodType === 'cash') session.cashSales -= p.amount;
    }
    this.push('credit_notes', {
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
      this.push('sale_item_return_claims', {
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

  // ---- plumbing -----------------------------------------------------------------------------------

  private methods = new Map<string, number>();
  private async methodId(code: string): Promise<number> {
    let id = this.methods.get(code);
    if (id === undefined) {
      id = Number((await this.qr.query('SELECT id FROM payment_methods WHERE code = ?', [code]))[0].id);
      this.methods.set(code, id);
    }
    return id;
  }

  /** UTC offset of a zone at an instant, in ms (local = utc + offset). */
  private offsetMs(tz: string, at: number): number {
    const p: Record<string, number> = {};
    for (const x of new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    }).formatToParts(new Date(at)))
      if (x.type !== 'literal') p[x.type] = Number(x.value);
    return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute) - (at - (at % 60_000));
  }

  /** Datetimes as the service stores them: UTC, to the second. */
  private dt(d: Date): string {
    return d.toISOString().slice(0, 19).replace('T', ' ');
  }

  private async insertRow(table: string, row: Record<string, unknown>): Promise<void> {
    const cols = Object.keys(row);
    await this.qr.query(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(row));
  }

  private push(table: string, row: Record<string, unknown>): void {
    let b = this.buffers.get(table);
    if (!b) this.buffers.set(table, (b = { cols: Object.keys(row), rows: [] }));
    b.rows.push(b.cols.map((c) => row[c] ?? null));
  }

  private pending(): number {
    let n = 0;
    for (const b of this.buffers.values()) n += b.rows.length;
    return n;
  }

  /** Writes every buffered row, parents before children, in multi-row INSERTs. */
  private async flushAll(): Promise<void> {
    const order = [
      'customers',
      'items',
      'cashier_sessions',
      'sales',
      'sale_items',
      'sale_payments',
      'invoices',
      'invoice_payments',
      'sale_returns',
      'sale_return_items',
      'return_refunds',
      'credit_notes',
      'sale_item_return_claims',
      'stock_movements',
      'stock_levels',
    ];
    const tables = [...this.buffers.keys()].sort((a, b) => order.indexOf(a) - order.indexOf(b));
    if (!tables.length) return;
    await this.qr.startTransaction();
    try {
      for (const table of tables) {
        const b = this.buffers.get(table)!;
        const per = Math.max(1, Math.floor(30_000 / b.cols.length));
        for (let i = 0; i < b.rows.length; i += per) {
          const chunk = b.rows.slice(i, i + per);
          const one = `(${b.cols.map(() => '?').join(', ')})`;
          await this.qr.query(`INSERT INTO ${table} (${b.cols.join(', ')}) VALUES ${chunk.map(() => one).join(', ')}`, chunk.flat());
        }
        b.rows = [];
      }
      await this.qr.commitTransaction();
    } catch (e) {
      await this.qr.rollbackTransaction();
      throw e;
    }
  }
}
