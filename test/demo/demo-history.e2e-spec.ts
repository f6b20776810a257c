import request from 'supertest';
import { loadConfig } from '@pos/platform';
import { planDay, STORE_PROFILES } from '../../libs/demo/src/history/trading-plan';
import { Books, loadBooks, utc } from '../invariants/books';
import { Findings } from '../invariants/known-defects';
import { checkInvoices, checkSales } from '../invariants/invariants-sales';
import { checkReturns, checkSaleStock, checkSessions, checkStock } from '../invariants/invariants-other';
import { compareReport, dayIn, Expected, ReportFilters } from '../invariants/recompute-common';
import { discountsReport, overviewReport, profitReport, revenueReport, salesReport, SalesScope, salesScope, storesReport } from '../invariants/recompute-sales';
import { heatmapReport, productsReport, voidsReport } from '../invariants/recompute-items';
import { cashierReport, paymentsReport } from '../invariants/recompute-tills';
import { ALL_REPORT_PERMISSIONS } from '../reports/report-helpers';
import { integrationToken, startTestApp, TestApp } from '../support/test-app';

/**
 * The demo data's trading history (DEMO_HISTORY_DAYS, issue 27), on a short history for speed:
 * trading on every day in both stores with every till's session closed, the books keeping the
 * invariant suite's record identities, the reports equal to their recomputation from the raw
 * sales, no stock below zero, and the same trading in a second database seeded alike.
 * SEED_DEMO_ON_FIRST_START is named so the harness boots a fresh database (not its shared template).
 */
const DAYS = 14;
const HISTORY = { DEMO_HISTORY_DAYS: String(DAYS), SEED_DEMO_ON_FIRST_START: 'true' };

type Build = (x: SalesScope, actual: { data?: { summary?: { key: string; value: number }[] } }) => Expected;
const REPORTS: [string, Build][] = [
  ['overview', overviewReport],
  ['sales', salesReport],
  ['revenue', revenueReport],
  ['stores', storesReport],
  ['profit', profitReport],
  ['discounts', discountsReport],
  ['payments', paymentsReport],
  ['products', productsReport],
  ['voids', voidsReport],
  ['heatmap', heatmapReport],
  ['cashier', cashierReport],
];

async function storeIds(t: TestApp): Promise<Map<string, { id: number; tz: string }>> {
  const rows = (await t.db.query('SELECT id, code, timezone FROM stores')) as { id: number; code: string; timezone: string }[];
  return new Map(rows.map((r) => [r.code, { id: Number(r.id), tz: r.timezone }]));
}

/** What a history traded, by store and local day: sales, their totals, units per item, sessions and their counts, returns. */
async function digest(t: TestApp): Promise<unknown> {
  const q = (sql: string) => t.db.query(sql) as Promise<Record<string, unknown>[]>;
  const stores = await storeIds(t);
  const code = new Map([...stores].map(([c, s]) => [s.id, c]));
  const tz = (storeId: unknown) => stores.get(code.get(Number(storeId))!)!.tz;
  const out: Record<string, number[]> = {};
  const add = (key: string, ...values: number[]) => (out[key] = (out[key] ?? values.map(() => 0)).map((v, i) => v + values[i]));
  for (const s of await q('SELECT store_id, created_at, total_amount, tax_total, status FROM sales'))
    add(`sales ${code.get(Number(s.store_id))} ${dayIn(utc(s.created_at), tz(s.store_id))} ${s.status}`, 1, Number(s.total_amount), Number(s.tax_total));
  for (const l of await q('SELECT i.sku, SUM(si.quantity) AS n FROM sale_items si JOIN items i ON i.id = si.item_id GROUP BY i.sku'))
    add(`units ${l.sku}`, Number(l.n));
  for (const r of await q('SELECT store_id, status, closing_balance, discrepancy FROM cashier_sessions'))
    add(`sessions ${code.get(Number(r.store_id))} ${r.status}`, 1, Number(r.closing_balance), Number(r.discrepancy));
  for (const r of await q('SELECT store_id, refund_total FROM sale_returns')) add(`returns ${code.get(Number(r.store_id))}`, 1, Number(r.refund_total));
  for (const r of await q('SELECT w.code, i.sku, l.quantity FROM stock_levels l JOIN warehouses w ON w.id = l.warehouse_id JOIN items i ON i.id = l.item_id'))
    add(`stock ${r.code} ${r.sku}`, Number(r.quantity));
  return out;
}

describe('demo trading history', () => {
  let t: TestApp;
  let books: Books;
  beforeAll(async () => {
    t = await startTestApp(HISTORY);
    const stores = await storeIds(t);
    books = await loadBooks(
      (sql, params) => t.db.query(sql, params),
      [...stores.values()].map((s) => s.id),
    );
  });
  afterAll(() => t?.close());

  it('trades on every day before today in both stores, every till opening and closing its session', async () => {
    for (const store of books.stores) {
      const today = dayIn(new Date(), store.timezone);
      const days = new Set(books.sales.filter((s) => s.store_id === store.id).map((s) => dayIn(s.created_at, store.timezone)));
      expect([store.code, days.size]).toEqual([store.code, DAYS]);
      expect(days.has(today)).toBe(false);
      const sessions = books.sessions.filter((s) => s.store_id === store.id);
      expect(sessions.length).toBe(DAYS * 2);
      expect(sessions.filter((s) => s.status !== 'closed')).toEqual([]);
      // different cashiers through the day, cash and card, some customers, a few discounts
      expect(new Set(books.sales.filter((s) => s.store_id === store.id).map((s) => s.user_id)).size).toBeGreaterThanOrEqual(2);
    }
    const methods = new Set(books.payments.map((p) => p.method_code));
    expect([...methods].sort()).toEqual(['card', 'cash']);
    expect(books.sales.filter((s) => s.customer_id !== null).length).toBeGreaterThan(0);
    // promotions through the pricing rules: a rule's price or its discount on the line
    expect(books.lines.filter((l) => l.rule_discount > 0 || l.price_source === 'pricing_rule').length).toBeGreaterThan(0);
    expect(books.lines.filter((l) => l.manual_discount > 0).length).toBeGreaterThan(0);
    expect(books.lines.filter((l) => l.price_source === 'price_book').length).toBeGreaterThan(0);
    expect(books.sales.filter((s) => s.status === 'voided').length).toBeGreaterThan(0);
    expect(books.returns.filter((r) => r.status === 'processed').length).toBeGreaterThan(0);
    // most counts match the expected cash; now and then a till is a little over or short
    const discrepancies = books.sessions.filter((s) => s.discrepancy !== 0);
    expect(discrepancies.length).toBeLessThan(books.sessions.length / 3);
  });

  it('keeps the books as real trading does (the record checks of the invariant suite)', () => {
    const f = new Findings();
    checkSales(books, f, -1);
    checkInvoices(books, f);
    checkReturns(books, f);
    checkSessions(books, f);
    checkStock(books, f);
    checkSaleStock(books, f);
    expect(f.failures).toEqual([]);
    expect(f.checks).toBeGreaterThan(1000);
  });

  it('never takes stock below zero, and every level is the sum of its ledger', async () => {
    const [low] = await t.db.query('SELECT MIN(quantity) AS n FROM stock_levels');
    expect(Number(low.n)).toBeGreaterThanOrEqual(0);
    const drift = await t.db.query(
      'SELECT l.item_id FROM stock_levels l LEFT JOIN (SELECT item_id, warehouse_id, SUM(quantity) AS q FROM stock_movements GROUP BY item_id, warehouse_id) m ' +
        'ON m.item_id = l.item_id AND m.warehouse_id = l.warehouse_id WHERE COALESCE(m.q, 0) <> l.quantity',
    );
    expect(drift).toEqual([]);
    const [receipts] = await t.db.query("SELECT COUNT(*) AS n FROM stock_movements WHERE type = 'receive' AND reference_type = 'adjustment'");
    expect(Number(receipts.n)).toBeGreaterThan(0);
  });

  it('reports the figures the raw sales add up to, in both stores', async () => {
    const token = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    for (const store of books.stores) {
      const filters: ReportFilters = {
        date_from: dayIn(new Date(Date.now() - (DAYS + 1) * 86_400_000), store.timezone),
        date_to: dayIn(new Date(), store.timezone),
        store_id: store.id,
      };
      const x = salesScope(books, store.id, filters, -1);
      for (const [path, build] of REPORTS) {
        const res = await request(t.http).get(`/api/v1/integration/reports/${path}`).query(filters).set('Authorization', `Bearer ${token}`);
        expect([store.code, path, res.status]).toEqual([store.code, path, 200]);
        expect([store.code, path, compareReport(res.body, build(x, res.body))]).toEqual([store.code, path, []]);
      }
    }
  });

  it('trades the same in a second database seeded alike (deterministic)', async () => {
    const second = await startTestApp(HISTORY);
    try {
      expect(await digest(second)).toEqual(await digest(t));
    } finally {
      await second.close();
    }
  });

  it('defaults to 90 days, planned at about 30 to 60 sales a day per store', () => {
    expect(loadConfig({}).demoHistoryDays).toBe(90);
    for (const p of STORE_PROFILES) {
      const sales = Array.from({ length: 90 }, (_, i) => planDay(p, 20_000 + i, i / 89, 5).sales.length);
      const mean = sales.reduce((a, n) => a + n, 0) / sales.length;
      expect([p.code, mean > 18 && mean < 45]).toEqual([p.code, true]);
      expect(Math.min(...sales)).toBeGreaterThanOrEqual(4);
    }
  });
});
