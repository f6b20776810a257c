import request from 'supertest';
import { CREDIT_NOTES_TABLE, LAST_SALE_TABLE, ROLLUP_TABLES, RollupRebuildService } from '@pos/integration';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, applyJournal, fig, report } from './report-helpers';

/**
 * Rollups are kept from the report journal (written in the sales' own transactions, applied by the RollupApplier); `reports:rebuild`
 * recomputes them from the raw sales and stock ledger. After a mix of sales, a void, a sale across
 * two warehouses and stock adjustments, the rebuilt tables equal the incrementally kept ones, row
 * for row. Then a return processed through the API (and replayed by the rebuild) and a store in
 * another currency.
 */
describe('Report rollups', () => {
  let t: TestApp;
  let all: string;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  let wh: Record<string, number>;
  let janeId: number;
  const api = () => request(t.http);
  let n = 0;
  const sell = async (body: Record<string, unknown>, token = cashier, storeId = 1) => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(token))
      .send({ store_id: storeId, idempotency_key: `roll-${++n}`, ...body });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  };

  /** Every rollup row (the journal applied first), in a stable order, numbers as numbers. */
  async function dump(): Promise<Record<string, unknown[]>> {
    await applyJournal(t);
    const out: Record<string, unknown[]> = {};
    for (const table of [...ROLLUP_TABLES.map((r) => r.name), LAST_SALE_TABLE, CREDIT_NOTES_TABLE]) {
      const rows = (await t.db.query(`SELECT * FROM ${table}`)) as Record<string, unknown>[];
      out[table] = rows
        .map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v]))))
        .sort();
    }
    return out;
  }
  const rebuild = () => t.app.get(RollupRebuildService).rebuild(() => undefined);

  beforeAll(async () => {
    // Reports read the store list fresh each time here (a store is added below).
    t = await startTestApp({ REPORTS_DIRECTORY_TTL_MS: '0' });
    all = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    wh = Object.fromEntries((await t.db.query('SELECT id, code FROM warehouses')).map((r: { id: number; code: string }) => [r.code, Number(r.id)]));
    janeId = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    // The demo seed writes its opening stock straight into the ledger, and rebuilds the rollups after it.
  });
  afterAll(() => t.close());

  it('the migrated tables have exactly the columns and keys the rollup definitions write', async () => {
    const qr = t.db.createQueryRunner();
    try {
      for (const def of ROLLUP_TABLES) {
        const table = (await qr.getTable(def.name))!;
        expect([def.name, table.columns.map((c) => c.name).sort()]).toEqual([def.name, [...def.keys, ...def.attrs, ...def.measures].sort()]);
        expect([def.name, table.primaryColumns.map((c) => c.name).sort()]).toEqual([def.name, [...def.keys].sort()]);
      }
    } finally {
      await qr.release();
    }
  });

  it('rebuilding from the raw records gives the rows the journal applier kept', async () => {
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
    await sell({
      items: [
        { id: ids['BEV-001'], qty: 3 },
        { id: ids['SNK-002'], qty: 1 },
      ],
      payments: [{ payment_method_code: 'cash', amount: 10 }],
      total_amount: 6.1,
    });
    await sell({
      customer_id: String(janeId),
      items: [
        { id: ids['COF-001'], qty: 1 },
        { id: ids['GRO-002'], qty: 2, warehouse_id: wh.CENTRAL },
      ],
      payments: [{ payment_method_code: 'on_account', amount: 10.58 }],
      total_amount: 10.58,
    });
    const voided = await sell({ items: [{ id: ids['HSE-004'], qty: 1 }], payments: [{ payment_method_code: 'card', amount: 7.03 }], total_amount: 7.03 });
    await api().post(`/api/v1/sales/${voided.id}/void`).set(bearer(manager)).send({}).expect(200);
    await sell({
      items: [{ id: ids['HSE-004'], qty: 2, discount_type: 'percent', discount_value: 5 }],
      payments: [{ payment_method_code: 'card', amount: 13.35 }],
      total_amount: 13.35,
    });
    // Tax-exempt: its line goes to the tax rollup's exempt row, incrementally and rebuilt alike.
    await sell({
      items: [{ id: ids['BEV-001'], qty: 1 }],
      tax_exempt: true,
      tax_exempt_reason: 'Charity',
      payments: [{ payment_method_code: 'card', amount: 1.29 }],
      total_amount: 1.29,
    });
    for (const adj of [
      { type: 'damage', warehouse_id: wh['DT-MAIN'], items: [{ item_id: ids['GRO-003'], quantity: 2 }] },
      { type: 'receive', warehouse_id: wh['DT-MAIN'], items: [{ item_id: ids['GRO-003'], quantity: 24, unit_cost: 2.5 }] },
      { type: 'transfer', warehouse_id: wh.CENTRAL, to_warehouse_id: wh['DT-MAIN'], items: [{ item_id: ids['BEV-001'], quantity: 12 }] },
      { type: 'spoilage', warehouse_id: wh['AP-MAIN'], items: [{ item_id: ids['GRO-001'], quantity: 1 }] },
    ]) {
      const res = await api().post('/api/v1/inventory/adjustments').set(bearer(manager)).send(adj);
      expect([adj.type, res.status]).toEqual([adj.type, 201]);
    }

    const writeOffs = await report(t, all, 'inventory/damage-spoilage');
    expect(
      writeOffs.body.data.rows.map((r: { sku: string; damaged_units: number; spoiled_units: number }) => [r.sku, r.damaged_units, r.spoiled_units]),
    ).toEqual([
      ['GRO-003', 2, 0],
      ['GRO-001', 0, 1],
    ]);
    // 2 x 2.50 eggs + 1 x 1.20 bread at current cost; received: the demo's opening stock and 24 eggs (the 12 water transferred are no receipt)
    expect(fig(writeOffs.body, 'loss_value', 'USD')).toBe(6.2);
    const [{ received }] = await t.db.query("SELECT SUM(quantity) AS received FROM stock_movements WHERE type = 'receive'");
    expect(fig(writeOffs.body, 'written_off_per_received', null)).toBe(Math.round((3 / Number(received)) * 10_000) / 100);

    const kept = await dump();
    expect(kept.rpt_sales.length).toBeGreaterThan(0);
    expect(kept.rpt_item_stock.length).toBeGreaterThan(0);
    expect(kept.rpt_tax.some((r) => (r as string).includes('"exempt":1'))).toBe(true);
    const rebuilt = await rebuild();
    expect(rebuilt).toMatchObject({ sales: 5, returns: 0 });
    expect(await dump()).toEqual(kept);

    // And a rollup that drifted is put right.
    await t.db.query('UPDATE rpt_sales SET total = total + 1');
    await t.db.query('DELETE FROM rpt_item_last_sale');
    expect(await dump()).not.toEqual(kept);
    await rebuild();
    expect(await dump()).toEqual(kept);
  });

  it('a processed return is netted from revenue, profit, tax, payments and the item, with its credit note; the rebuild replays it', async () => {
    const before = await report(t, all, 'overview', { store_id: 1 });
    const sale = await sell({ items: [{ id: ids['COF-002'], qty: 2 }], payments: [{ payment_method_code: 'cash', amount: 30 }], total_amount: 25.48 });
    const line = sale.items[0];
    // 1 of 2 Ground Coffee back: net 12.49, tax 0.25 (2%), 12.74 in cash; cost 6.10; back on the shelf.
    const managerSession = (await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 50 }).expect(200)).body.data.id;
    const reasons = (await api().get('/api/v1/returns/reasons').set(bearer(manager))).body.data as { id: number; code: string }[];
    const created = await api()
      .post('/api/v1/returns')
      .set(bearer(manager))
      .send({
        sale_id: sale.id,
        reason_id: reasons.find((r) => r.code === 'defective')!.id,
        process_immediately: true,
        items: [{ sale_item_id: line.id, quantity: 1, condition: 'resellable', restock: true }],
      });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ status: 'processed', refund_total: 12.74, session_id: managerSession });
    const returnId = created.body.data.id;
    const creditNote = created.body.data.credit_note.number;

    const after = await report(t, all, 'overview', { store_id: 1 });
    const delta = (key: string) => Math.round(((fig(after.body, key) ?? 0) - (fig(before.body, key) ?? 0)) * 100) / 100;
    // the sale adds 24.98 net (25.48 - 0.50 tax) and 12.20 cost; the return takes 12.49 and 6.10 back
    expect([delta('net_sales'), delta('refund_net'), delta('net_revenue'), delta('cogs'), delta('gross_profit'), delta('net_tax'), delta('returns')]).toEqual([
      24.98, 12.49, 12.49, 6.1, 6.39, 0.25, 1,
    ]);

    const returns = await report(t, all, 'returns', { store_id: 1 });
    expect(returns.body.data.rows).toEqual([
      expect.objectContaining({
        reason: 'defective',
        condition: 'resellable',
        returns: 1,
        units_returned: 1,
        units_restocked: 1,
        refund_net: 12.49,
        refund_tax: 0.25,
        refund_total: 12.74,
        cost: 6.1,
      }),
    ]);
    const tax = await report(t, all, 'tax', { store_id: 1 });
    expect(tax.body.data.rows.find((r: { rate_percent: number }) => r.rate_percent === 2)).toMatchObject({ refunded_taxable: 12.49, tax_refunded: 0.25 });
    const payments = await report(t, all, 'payments', { store_id: 1 });
    expect(payments.body.data.rows.find((r: { method_code: string }) => r.method_code === 'cash')).toMatchObject({ refund_count: 1, refunded: 12.74 });
    const notes = await report(t, all, 'invoices/credit-notes', { store_id: 1 });
    expect(notes.body.data.rows).toEqual([expect.objectContaining({ number: creditNote, sale_id: sale.id, return_id: returnId, credit_note_amount: 12.74 })]);
    const products = await report(t, all, 'products', { store_id: 1 });
    expect(products.body.data.rows.find((r: { sku: string }) => r.sku === 'COF-002')).toMatchObject({
      units_sold: 2,
      units_returned: 1,
      net_units: 1,
      refund_net: 12.49,
    });
    const rate = await report(t, all, 'return-rate', { store_id: 1 });
    expect(rate.body.data.rows).toEqual([expect.objectContaining({ sku: 'COF-002', units_sold: 2, units_returned: 1, unit_return_rate: 50 })]);
    const closeout = await report(t, all, 'closeout', { store_id: 1 });
    const theirs = closeout.body.data.rows.filter((r: { session_id: number }) => r.session_id === managerSession);
    expect(theirs.reduce((a: number, r: { refunds: number }) => a + r.refunds, 0)).toBe(12.74);
    expect(theirs.reduce((a: number, r: { cash_refunds: number }) => a + r.cash_refunds, 0)).toBe(12.74);

    // The rebuild reads the processed return back from the returns context: the same rows.
    const kept = await dump();
    expect(await rebuild()).toMatchObject({ returns: 1 });
    expect(await dump()).toEqual(kept);
  });

  it('a return to another warehouse: its money where the line was sold from, its goods where they went, applied and rebuilt alike', async () => {
    const sale = await sell({ items: [{ id: ids['GRO-002'], qty: 3 }], payments: [{ payment_method_code: 'card', amount: 3.64 }], total_amount: 3.64 });
    const res = await api()
      .post('/api/v1/returns')
      .set(bearer(manager))
      .send({
        sale_id: sale.id,
        process_immediately: true,
        items: [{ sale_item_id: sale.items[0].id, quantity: 2, condition: 'spoiled', warehouse_id: wh.CENTRAL }],
      });
    expect(res.status).toBe(200);
    const kept = await dump();
    const rows = (table: string) => kept[table].map((r) => JSON.parse(r as string) as Record<string, number | string>);
    const milk = (r: Record<string, number | string>) => r.item_id === ids['GRO-002'] && Number(r.refund_cost) > 0;
    // 2 x 0.70 cost back, in the Downtown Floor's rows (sold from there), none in Central's
    expect(
      rows('rpt_items')
        .filter(milk)
        .map((r) => [r.span, r.warehouse_id, r.refund_cost]),
    ).toContainEqual([0, wh['DT-MAIN'], 140]);
    expect(rows('rpt_items').filter((r) => milk(r) && r.warehouse_id === wh.CENTRAL)).toEqual([]);
    expect(rows('rpt_credit_notes').find((r) => r.return_id === res.body.data.id)).toMatchObject({ warehouse_id: wh['DT-MAIN'] });
    // the goods came back to Central and were written off there
    const centralToday = rows('rpt_stock_moves').filter((r) => r.span === 0 && r.warehouse_id === wh.CENTRAL);
    expect(centralToday.find((r) => r.move_type === 'return')).toMatchObject({ qty_in: 2 });
    expect(centralToday.find((r) => r.move_type === 'spoilage')).toMatchObject({ qty_out: expect.any(Number) });
    await rebuild();
    expect(await dump()).toEqual(kept);
  });

  it('a store in another currency is reported per currency, never summed with unlike money', async () => {
    const now = t.isMysql ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
    await t.db.query(
      "INSERT INTO stores (name, code, currency_code, timezone, prices_include_tax, allow_negative_stock, is_active, created_at, updated_at) VALUES ('Berlin Store', 'BE', 'EUR', 'Europe/Berlin', 1, 0, 1, ?, ?)",
      [now, now],
    );
    const be = Number((await t.db.query("SELECT id FROM stores WHERE code = 'BE'"))[0].id);
    await t.db.query("INSERT INTO warehouses (store_id, name, code, is_active, created_at, updated_at) VALUES (?, 'Berlin Floor', 'BE-MAIN', 1, ?, ?)", [
      be,
      now,
      now,
    ]);
    const beWh = Number((await t.db.query("SELECT id FROM warehouses WHERE code = 'BE-MAIN'"))[0].id);
    await t.db.query('UPDATE stores SET default_warehouse_id = ? WHERE id = ?', [beWh, be]);
    for (const pm of await t.db.query('SELECT id FROM payment_methods'))
      await t.db.query('INSERT INTO store_payment_methods (store_id, payment_method_id) VALUES (?, ?)', [be, pm.id]);
    await t.db.query(`INSERT INTO stock_levels (item_id, warehouse_id, quantity, reorder_level, updated_at) VALUES (?, ?, 20, NULL, ?)`, [
      ids['BEV-003'],
      beWh,
      now,
    ]);
    const managerId = Number((await t.db.query("SELECT id FROM users WHERE email = 'manager@example.com'"))[0].id);
    await t.db.query('INSERT INTO user_stores (user_id, store_id) VALUES (?, ?)', [managerId, be]);
    const token = await login(t, DEMO.manager);
    await api().post('/api/v1/sessions/open').set(bearer(token)).send({ store_id: be, opening_balance: 0 }).expect(200);
    const body = { items: [{ id: ids['BEV-003'], qty: 3 }], payments: [{ payment_method_code: 'card', amount: 5.37 }], total_amount: 5.37 };
    const priced = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(token))
      .send({ store_id: be, idempotency_key: 'be-1', ...body });
    expect(priced.status).toBe(200);
    await sell(body, token, be);

    const usdOnly = await report(t, all, 'overview', { store_id: 1 });
    const res = await report(t, all, 'overview');
    const currencies = [...new Set(res.body.data.summary.map((f: { currency: string }) => f.currency))];
    expect(currencies.sort()).toEqual(['EUR', 'USD']);
    expect(fig(res.body, 'total', 'EUR')).toBe(5.37);
    expect(fig(res.body, 'sales_count', 'EUR')).toBe(1);
    const ap = await report(t, all, 'overview', { store_id: 2 });
    expect(fig(res.body, 'total', 'USD')).toBe(Math.round(((fig(usdOnly.body, 'total') ?? 0) + (fig(ap.body, 'total') ?? 0)) * 100) / 100);
    for (const path of ['sales', 'payments', 'products', 'products/abc', 'stores', 'tax', 'heatmap']) {
      const r = await report(t, all, path);
      const chartCurrencies = [...new Set(r.body.data.charts.flatMap((c: { series: { currency: string | null }[] }) => c.series.map((s) => s.currency)))];
      expect([path, chartCurrencies.sort()]).toEqual([path, ['EUR', 'USD']]);
      for (const row of r.body.data.rows as { currency?: string }[]) expect(['EUR', 'USD']).toContain(row.currency);
    }
    const stores = await report(t, all, 'stores');
    expect(stores.body.data.rows.find((r: { store_code: string }) => r.store_code === 'BE')).toMatchObject({ currency: 'EUR', total: 5.37, sales_count: 1 });
    const berlin = await report(t, all, 'sales', { store_id: be });
    expect(berlin.body.meta.filters.time_zone).toBe('Europe/Berlin');
  });
});
