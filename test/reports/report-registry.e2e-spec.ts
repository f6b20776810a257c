import request from 'supertest';
import { REPORTS as DEFINITIONS } from '@pos/integration';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, applyJournal } from './report-helpers';

type Payload = { summary: { key: string }[]; rows: Record<string, unknown>[]; columns: { key: string }[] };

/**
 * Every report of the registry answers what its definition declares: each row has exactly the
 * declared columns in order, every summary key is a declared figure (a template key such as
 * `taken_{method}` stands for its filled forms), and the served OpenAPI document gives its rows
 * that schema. A day of trading first (cash, card, on account, a customer, a return, a void), so
 * the reports have rows to check.
 */
describe('Report registry', () => {
  let t: TestApp;
  let token: string;
  let cashierId: number;
  let doc: { paths: Record<string, { get: { responses: Record<string, { content: Record<string, { schema: unknown }> }> } }> };
  const api = () => request(t.http);
  const ok = async (res: request.Test, status: number) => {
    const r = await res;
    if (r.status !== status) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };

  beforeAll(async () => {
    t = await startTestApp();
    token = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    const [cashier, manager] = [await login(t, DEMO.cashier), await login(t, DEMO.manager)];
    cashierId = (await ok(api().get('/api/v1/auth/me').set(bearer(cashier)), 200)).id;
    const items = (await t.db.query("SELECT id FROM items WHERE sku IN ('BEV-001', 'SNK-001', 'GRO-002') ORDER BY sku")) as { id: number }[];
    const customer = String((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    await ok(api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }), 200);
    const sales = [];
    for (const [i, method] of ['cash', 'card', 'on_account'].entries()) {
      const body = { store_id: 1, customer_id: customer, items: [{ id: items[i].id, qty: 2 }] };
      const total = (await ok(api().post('/api/v1/pricing/cart').set(bearer(cashier)).send(body), 200)).total as number;
      const payments = [{ payment_method_code: method, amount: total }];
      sales.push(
        await ok(
          api()
            .post('/api/v1/pos/checkout')
            .set(bearer(cashier))
            .send({ ...body, idempotency_key: `registry-${i}`, payments, total_amount: total }),
          201,
        ),
      );
    }
    const returnBody = {
      sale_id: String(sales[0].id),
      items: [{ sale_item_id: String(sales[0].items[0].id), quantity: 1, condition: 'resellable' }],
      process_immediately: true,
    };
    await ok(api().post('/api/v1/returns').set(bearer(manager)).send(returnBody), 200);
    await ok(api().post(`/api/v1/sales/${sales[1].id}/void`).set(bearer(manager)).send({ reason: 'registry test' }), 200);
    await applyJournal(t);
    doc = (await api().get('/api/docs-json')).body;
  });
  afterAll(() => t.close());

  type Schema = { type?: string; nullable?: boolean; enum?: unknown[]; oneOf?: Schema[]; additionalProperties?: Schema };
  /** Whether a value is what its OpenAPI schema says (the types, nullability and enums a generated client relies on). */
  const fits = (v: unknown, s: Schema): boolean => {
    if (v === null) return s.nullable === true;
    if (s.oneOf) return s.oneOf.some((o) => fits(v, o));
    if (s.enum && !s.enum.includes(v)) return false;
    if (s.type === 'integer') return Number.isInteger(v);
    if (s.type === 'number') return typeof v === 'number';
    if (s.type === 'string' || s.type === 'boolean') return typeof v === s.type;
    if (s.type === 'object')
      return typeof v === 'object' && Object.values(v as object).every((x) => !s.additionalProperties || fits(x, s.additionalProperties));
    return false;
  };
  const declared = (keys: readonly string[]) => keys.map((k) => new RegExp(`^${k.replace(/\{\w+\}/g, '.+')}$`));

  it.each(DEFINITIONS.map((d) => [d.route, d] as const))('%s answers what it declares', async (route, definition) => {
    const path = route.replace(':cashier', String(cashierId));
    const res = await api().get(`/api/v1/integration/reports/${path}`).set(bearer(token));
    expect(res.status).toBe(200);
    const data = res.body.data as Payload;
    for (const row of data.rows) expect(Object.keys(row)).toEqual([...definition.columns]);
    if (data.rows.length) expect(data.columns.map((c) => c.key)).toEqual([...definition.columns]);
    const figures = declared(definition.summary);
    for (const f of data.summary) expect({ key: f.key, declared: figures.some((re) => re.test(f.key)) }).toEqual({ key: f.key, declared: true });
    const schema = doc.paths[`/api/v1/reports/${route.replace(/:(\w+)/, '{$1}')}`].get.responses['200'].content['application/json'].schema;
    const rows = (schema as { properties: { data: { properties: { rows: { items: { required: string[]; properties: Record<string, Schema> } } } } } })
      .properties.data.properties.rows.items;
    expect(rows.required).toEqual([...definition.columns]);
    for (const row of data.rows)
      for (const [key, value] of Object.entries(row)) expect({ key, value, fits: fits(value, rows.properties[key]) }).toEqual({ key, value, fits: true });
    // Every report pages its rows: meta.rows says which page (500 by default) and how many in all.
    const all = data.rows.length;
    expect(res.body.meta.rows).toEqual({ current_page: 1, per_page: 500, total: all, last_page: Math.max(1, Math.ceil(all / 500)) });
    const meta = (schema as { properties: { meta: { required: string[]; properties: { rows: { required: string[] } } } } }).properties.meta;
    expect(meta.required).toContain('rows');
    expect(meta.properties.rows.required).toEqual(['current_page', 'last_page', 'per_page', 'total']);
    const second = await api().get(`/api/v1/integration/reports/${path}`).set(bearer(token)).query({ page: 2, per_page: 1 });
    expect(second.status).toBe(200);
    expect(second.body.meta.rows).toEqual({ current_page: 2, per_page: 1, total: all, last_page: Math.max(1, all) });
    expect(second.body.data.rows).toEqual(data.rows.slice(1, 2));
    const { rows: _rows, ...rest } = second.body.data as Payload;
    const { rows: _all, ...whole } = data;
    expect(rest).toEqual(whole);
  });

  it('by-store charts of revenue and profit show the stores that sold, not every store at 0', async () => {
    for (const [route, title] of [
      ['revenue', 'Net revenue by store'],
      ['profit', 'Gross profit by store'],
    ]) {
      const points = async (query: Record<string, number>) => {
        const res = await api().get(`/api/v1/integration/reports/${route}`).set(bearer(token)).query(query);
        const chart = (res.body.data.charts as { title: string; series: { data: { x: string }[] }[] }[]).find((c) => c.title === title);
        return chart?.series.flatMap((s) => s.data.map((p) => p.x));
      };
      // Central (3) serves both stores and sold nothing today; the floor (1) sold for Downtown.
      expect(await points({ warehouse_id: 3 })).toEqual([]);
      expect(await points({ warehouse_id: 1 })).toEqual(['Downtown Store']);
    }
  });

  it('the trading gave most reports rows to check', async () => {
    let withRows = 0;
    for (const d of DEFINITIONS) {
      const res = await api()
        .get(`/api/v1/integration/reports/${d.route.replace(':cashier', String(cashierId))}`)
        .set(bearer(token));
      if ((res.body.data as Payload).rows.length > 0) withRows++;
    }
    expect(withRows).toBeGreaterThanOrEqual(28);
  });
});
