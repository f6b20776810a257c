import request from 'supertest';
import { RollupApplier } from '@pos/integration';
import { bearer, TestApp } from '../support/test-app';

/** The 32 report paths of contract 4.10 with the permission part 5 gives each. */
export const REPORTS: [string, string][] = [
  ['overview', 'reports.view'],
  ...[
    'sales',
    'discounts',
    'returns',
    'closeout',
    'invoices',
    'invoices/aging',
    'invoices/dso',
    'invoices/credit-notes',
    'invoices/funnel',
    'revenue',
    'heatmap',
    'voids',
    'return-rate',
    'cashier',
    'cashier/3',
  ].map((p): [string, string] => [p, 'reports.sales']),
  ['profit', 'reports.profit'],
  ['products', 'reports.inventory'],
  ['products/abc', 'reports.inventory'],
  ['price-source', 'reports.inventory'],
  ['customers', 'reports.customers'],
  ['payments', 'reports.payments'],
  ['stores', 'reports.stores'],
  ['tax', 'reports.tax'],
  ...['overview', 'stock', 'movement', 'valuation', 'replenishment', 'turns', 'dead-stock', 'damage-spoilage'].map((p): [string, string] => [
    `inventory/${p}`,
    'inventory.reports',
  ]),
];

export const ALL_REPORT_PERMISSIONS = [...new Set(REPORTS.map(([, p]) => p))];

/** Adds what the report journal holds to the rollups now (the worker does it every ROLLUP_APPLY_INTERVAL_MS). */
export function applyJournal(t: TestApp): Promise<number> {
  return t.app.get(RollupApplier).applyPending();
}

/** A report, with every sale made so far in its figures (the journal applied first). */
export async function report(t: TestApp, token: string, path: string, query: Record<string, string | number> = {}, prefix = 'integration') {
  await applyJournal(t);
  return request(t.http).get(`/api/v1/${prefix}/reports/${path}`).set(bearer(token)).query(query);
}

type Figure = { key: string; value: number | null; currency: string | null };

/** The value of a summary figure (of one currency when given). */
export function fig(body: { data: { summary: Figure[] } }, key: string, currency: string | null = 'USD'): number | null {
  const found = body.data.summary.find((f) => f.key === key && (currency === null || f.currency === currency || f.currency === null));
  if (!found) throw new Error(`no summary figure ${key} (${currency}) in ${JSON.stringify(body.data.summary.map((f) => f.key))}`);
  return found.value;
}

/** Asserts the report payload shape of contract 2.6. */
export function expectReportShape(res: request.Response): void {
  expect(res.status).toBe(200);
  expect(res.body.success).toBe(true);
  const { data, meta } = res.body;
  expect(Array.isArray(data.summary)).toBe(true);
  expect(Array.isArray(data.rows)).toBe(true);
  expect(Array.isArray(data.columns)).toBe(true);
  expect(Array.isArray(data.charts)).toBe(true);
  for (const f of data.summary) {
    expect(typeof f.key).toBe('string');
    expect(typeof f.label).toBe('string');
    expect(f.value === null || typeof f.value === 'number').toBe(true);
  }
  for (const c of data.charts) {
    expect(['line', 'bar', 'pie', 'heatmap']).toContain(c.type);
    expect(typeof c.title).toBe('string');
    expect(Array.isArray(c.series)).toBe(true);
  }
  expect(meta.filters.date_from).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(meta.filters.date_to).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  expect(new Date(meta.generated_at).toISOString()).toBe(meta.generated_at);
}
