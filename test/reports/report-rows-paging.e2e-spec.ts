import request from 'supertest';
import { bearer, TestApp } from '../support/test-app';
import { bootReportDay, ReportDay } from './report-day';
import { report, REPORTS } from './report-helpers';

type Body = { data: { summary: unknown[]; rows: Record<string, unknown>[]; columns: unknown[]; charts: unknown[] }; meta: { rows: unknown } };

/**
 * Report rows are paged (`page`, `per_page`: default 500, at most 1,000): `data.rows` holds the
 * asked page in the report's order, `meta.rows` says which page and how many rows in all, and
 * `summary`, `columns` and `charts` stay those of the whole period.
 */
describe('Report rows paged', () => {
  let day: ReportDay;
  let t: TestApp;
  let token: string;

  // A day of trading (report-day.ts): five items sold, so products/abc ranks five rows.
  beforeAll(async () => {
    day = await bootReportDay();
    t = day.t;
    token = day.all;
  });
  afterAll(() => t.close());

  const without = (body: Body) => ({ summary: body.data.summary, columns: body.data.columns, charts: body.data.charts });

  it('a report with more rows than per_page: the slice, the total, the last page, the same summary and charts', async () => {
    const all = (await report(t, token, 'inventory/stock', { per_page: 1000 })).body as Body;
    const total = all.data.rows.length;
    expect(total).toBeGreaterThan(7);
    expect(all.meta.rows).toEqual({ current_page: 1, per_page: 1000, total, last_page: 1 });
    const last = Math.ceil(total / 3);
    for (const page of [1, 2, last]) {
      const res = await report(t, token, 'inventory/stock', { per_page: 3, page });
      expect(res.status).toBe(200);
      const body = res.body as Body;
      expect(body.data.rows).toEqual(all.data.rows.slice((page - 1) * 3, page * 3));
      expect(body.meta.rows).toEqual({ current_page: page, per_page: 3, total, last_page: last });
      expect(without(body)).toEqual(without(all));
    }
    // Past the last page: no rows, the same figures and columns.
    const past = (await report(t, token, 'inventory/stock', { per_page: 3, page: last + 1 })).body as Body;
    expect(past.data.rows).toEqual([]);
    expect(past.meta.rows).toEqual({ current_page: last + 1, per_page: 3, total, last_page: last });
    expect(without(past)).toEqual(without(all));
  });

  it('a ranking is paged after it is ranked: page 2 goes on where page 1 stops', async () => {
    const all = ((await report(t, token, 'products/abc', { per_page: 1000 })).body as Body).data.rows;
    expect(all.length).toBe(5);
    const page2 = ((await report(t, token, 'products/abc', { per_page: 2, page: 2 })).body as Body).data.rows;
    expect(page2).toEqual(all.slice(2, 4));
    expect(page2.map((r) => r.rank)).toEqual([3, 4]);
  });

  // These build only the asked page's rows (ReportParts.rowsTotal); each page must be the same rows as the whole list.
  it.each(['invoices/aging'])('%s built a page at a time: each page is the slice of the whole list', async (path) => {
    // two customers owing: sale D's invoice moved to another customer than Jane's
    const [other] = (await t.db.query('SELECT id FROM customers WHERE id <> ? ORDER BY id LIMIT 1', [day.janeId])) as { id: number }[];
    await t.db.query('UPDATE invoices SET customer_id = ? WHERE id = ?', [other.id, day.sales.D.invoice.id]);
    const whole = (await report(t, token, path, { per_page: 1000 })).body as Body;
    const total = whole.data.rows.length;
    expect(total).toBeGreaterThan(1);
    for (let page = 1; page <= total + 1; page++) {
      const body = (await report(t, token, path, { per_page: 1, page })).body as Body;
      expect(body.data.rows).toEqual(whole.data.rows.slice(page - 1, page));
      expect(body.meta.rows).toEqual({ current_page: page, per_page: 1, total, last_page: total });
      expect(without(body)).toEqual(without(whole));
    }
  });

  it('staff routes page the same way', async () => {
    const res = await request(t.http).get('/api/v1/reports/inventory/stock').set(bearer(day.manager)).query({ per_page: 2, page: 2 });
    expect(res.status).toBe(200);
    expect((res.body as Body).data.rows).toHaveLength(2);
    expect(res.body.meta.rows).toMatchObject({ current_page: 2, per_page: 2 });
  });

  it.each([
    [{ per_page: 0 }, 'per_page'],
    [{ per_page: 1001 }, 'per_page'],
    [{ per_page: 'x' }, 'per_page'],
    [{ per_page: '2.5' }, 'per_page'],
    [{ page: 0 }, 'page'],
    [{ page: 'x' }, 'page'],
    [{ page: 1_000_001 }, 'page'],
  ])('%j is 422 naming %s', async (query, field) => {
    const res = await request(t.http).get('/api/v1/integration/reports/sales').set(bearer(token)).query(query);
    expect(res.status).toBe(422);
    expect(res.body.success).toBe(false);
    expect(Object.keys(res.body.errors)).toEqual([field]);
  });

  it('OpenAPI documents page and per_page (bounds, defaults) on every report route', async () => {
    type Param = { name: string; in: string; schema: { minimum?: number; maximum?: number; default?: number } };
    const doc = (await request(t.http).get('/api/docs-json')).body as { paths: Record<string, { get: { parameters: Param[] } }> };
    for (const [path] of REPORTS) {
      for (const prefix of ['integration', 'reports']) {
        const key = prefix === 'reports' ? `/api/v1/reports/${path}` : `/api/v1/integration/reports/${path}`;
        const params = doc.paths[key.replace('cashier/3', 'cashier/{cashier}')].get.parameters.filter((p) => p.in === 'query');
        const of = (name: string) => params.find((p) => p.name === name)?.schema;
        expect({ key, page: of('page'), per_page: of('per_page') }).toEqual({
          key,
          page: expect.objectContaining({ minimum: 1, maximum: 1_000_000, default: 1 }),
          per_page: expect.objectContaining({ minimum: 1, maximum: 1000, default: 500 }),
        });
      }
    }
  });
});
