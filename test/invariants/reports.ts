import { applyJournal } from '../reports/report-helpers';
import { Books } from './books';
import { Defect, Findings } from './known-defects';
import { Answer, call, STORE_KEYS, World } from './harness';
import { judgeRead } from './executor';
import { compareReport, dayIn, Expected, ReportFilters } from './recompute-common';
import { INVOICE_REPORTS } from './recompute-invoices';
import { INVENTORY_REPORTS } from './recompute-inventory';
import { discountsReport, overviewReport, profitReport, revenueReport, salesReport, SalesScope, salesScope, storesReport } from './recompute-sales';
import { abcReport, heatmapReport, priceSourceReport, productsReport, returnRateReport, returnsReport, voidsReport } from './recompute-items';
import { cashierReport, customersReport, oneCashierReport, paymentsReport, taxReport } from './recompute-tills';
import { closeoutReport, Drawer } from './recompute-closeout';

type Build = (x: SalesScope, actual: Answer['body']) => Expected;

/** The sales family (this suite's recomputations), each with the mismatches a listed defect explains. */
const SALES_FAMILY: [string, Build, [RegExp, Defect][]][] = [
  ['overview', overviewReport, []],
  ['sales', salesReport, []],
  ['discounts', discountsReport, []],
  ['returns', returnsReport, [[/^returns row \S+ returns: /, 'returns-row-counts-return-once']]],
  [
    'closeout',
    (x) => closeoutReport(x).expected,
    [
      [/^closeout row \S+\|null\|\d+ (cash_sales|cash_refunds|totals_by_payment_method\.|refunds_by_payment_method\.)/, 'closeout-sessionless-cash'],
      [/^closeout (row \S+: missing|summary (sessions|sessions_closed|expected_cash|counted_cash|discrepancy) )/, 'closeout-sessions'],
    ],
  ],
  ['profit', profitReport, []],
  ['products', productsReport, []],
  ['products/abc', abcReport, []],
  ['customers', customersReport, [[/summary (customer_net_sales|net_sales_per_customer) /, 'figure-definitions']]],
  ['payments', paymentsReport, []],
  ['stores', storesReport, []],
  ['tax', taxReport, [[/taxable|exempt/, 'tax-report-exempt']]],
  ['revenue', revenueReport, []],
  ['heatmap', heatmapReport, []],
  ['voids', voidsReport, []],
  ['return-rate', returnRateReport, []],
  ['price-source', priceSourceReport, []],
  ['cashier', cashierReport, []],
];

/** Mismatches of the invoice and inventory families that a listed defect explains (the ids of reports-fixed.e2e-spec.ts). */
const FAMILY_TAGS: [RegExp, Defect][] = [
  [/^inventory\/overview summary units_sold /, 'overview-units-sold-counts-voids'],
  [
    /^inventory\/replenishment (row \S+ (units_sold_in_period|average_daily_sales|days_of_cover): |summary units_sold_in_period )/,
    'replenishment-rate-counts-voids',
  ],
  [/^inventory\/turns (summary days_of_inventory |row \S+ days_of_inventory: )/, 'turns-days-of-inventory-from-rounded-turns'],
  [/^inventory\/(overview summary units_received|damage-spoilage summary written_off_per_received) /, 'received-counts-transfers'],
  [/^invoices summary collected_on_account /, 'collected-on-account-counts-credit-notes'],
  [/^invoices\/funnel (summary (paid_in_full|collection_rate) |row (any_payment|paid_in_full)\||chart )/, 'funnel-credit-note-as-payment'],
];

/**
 * Every report of contract 4.10 for each store of the sequence, over the days it ran (business
 * days in the store's zone, from the day before it started to today), against its recomputation
 * from the raw tables: the sales family here, the invoice and inventory families by
 * recompute-invoices.ts and recompute-inventory.ts. Money exact in minor units.
 */
export async function checkReports(w: World, b: Books, f: Findings): Promise<void> {
  await applyJournal(w.suite.t);
  const now = new Date();
  for (const key of STORE_KEYS) {
    const s = w.stores[key];
    const filters: ReportFilters = {
      date_from: dayIn(new Date(w.startedAt.getTime() - 86_400_000), s.timezone),
      date_to: dayIn(now, s.timezone),
      store_id: s.id,
    };
    const x = salesScope(b, s.id, filters, w.suite.exemptCustomerId);
    const fetch = async (path: string) => {
      const query = new URLSearchParams(Object.entries(filters).map(([k, v]) => [k, String(v)])).toString();
      const res = judgeRead(w, f, `report ${path}`, await call(w, 'get', `/integration/reports/${path}?${query}`, w.suite.reports));
      f.equal(res.status, 200, `${s.code} report ${path}: status`);
      return res;
    };
    const judge = (path: string, mismatches: string[], tags: [RegExp, Defect][] = []) => {
      for (const m of mismatches)
        f.expect(false, `${s.code} (${s.currency}${s.inclusive ? ', tax-inclusive' : ''}) report`, () => m, tags.find(([re]) => re.test(m))?.[1]);
    };
    for (const [path, build, tags] of SALES_FAMILY) {
      const res = await fetch(path);
      if (res.status !== 200) continue;
      judge(path, compareReport(res.body, build(x, res.body)), tags);
      if (path === 'closeout') judge(path, compareDrawers(res.body, closeoutReport(x).drawers, s.decimals), tags);
    }
    for (const user of Object.values(w.suite.users)) {
      const res = await fetch(`cashier/${user}`);
      if (res.status === 200) judge(`cashier/${user}`, compareReport(res.body, oneCashierReport(x, user)));
    }
    for (const [path, recompute] of Object.entries({ ...INVOICE_REPORTS, ...INVENTORY_REPORTS })) {
      const res = await fetch(path);
      if (res.status === 200) judge(path, compareReport(res.body, await recompute(w.suite.q, filters, now)), FAMILY_TAGS);
    }
  }
}

/** Closeout rows carry the day's takings and refunds per payment method as objects: each method's amount, exact. */
function compareDrawers(body: Answer['body'], drawers: Drawer[], decimals: number): string[] {
  const out: string[] = [];
  const rows = (body.data?.rows ?? []) as Record<string, unknown>[];
  for (const d of drawers) {
    const r = rows.find((x) => x.date === d.day && (x.session_id ?? null) === d.sessionId && Number(x.cashier_id) === d.cashierId);
    if (!r) continue;
    for (const [field, expected] of [
      ['totals_by_payment_method', d.byMethod],
      ['refunds_by_payment_method', d.refundsByMethod],
    ] as const) {
      const actual = (r[field] ?? {}) as Record<string, number>;
      for (const m of new Set([...Object.keys(actual), ...Object.keys(expected)])) {
        const a = Math.round((actual[m] ?? 0) * 10 ** decimals);
        if (a !== (expected[m] ?? 0))
          out.push(`closeout row ${d.day}|${d.sessionId}|${d.cashierId} ${field}.${m}: expected ${expected[m] ?? 0} (minor units), actual ${actual[m]}`);
      }
    }
  }
  return out;
}
