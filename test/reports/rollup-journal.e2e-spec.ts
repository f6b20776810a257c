import request from 'supertest';
import { RollupApplier, RollupRebuildService } from '@pos/integration';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, fig } from './report-helpers';

/**
 * The report journal (issue 11.4): a sale writes its facts (the sale and its stock movements) to
 * rpt_journal in its own transaction, one row, and the RollupApplier adds them to the rollups
 * later; reports say how fresh they are in meta.as_of. Here the periodic applier is slowed down so
 * each test decides when it runs.
 */
describe('Report journal', () => {
  let t: TestApp;
  let all: string;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  let n = 0;
  const api = () => request(t.http);
  const apply = () => t.app.get(RollupApplier).applyPending();
  const journalRows = async () => (await t.db.query('SELECT id, entries, created_at FROM rpt_journal ORDER BY id')) as { id: number; entries: string }[];
  const salesReport = () => api().get('/api/v1/integration/reports/sales').set(bearer(all));
  /** A sale at the server's price (the total comes from a validation with a wrong one); `total` overrides it. */
  const sell = async (items: { sku: string; qty: number }[], method = 'cash', total?: number) => {
    const body = { store_id: 1, items: items.map((l) => ({ id: ids[l.sku], qty: l.qty })) };
    const priced = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send({ ...body, idempotency_key: 'journal-price', payments: [{ payment_method_code: method, amount: 0.01 }], total_amount: 0.01 });
    const amount = total ?? Number(priced.body.server_total);
    if (Number.isNaN(amount)) throw new Error(JSON.stringify(priced.body));
    return api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ ...body, idempotency_key: `journal-${++n}`, payments: [{ payment_method_code: method, amount }], total_amount: amount });
  };
  const rollupDump = async () => {
    const out: Record<string, string[]> = {};
    for (const table of ['rpt_sales', 'rpt_items', 'rpt_payments', 'rpt_item_stock', 'rpt_stock_moves', 'rpt_item_last_sale']) {
      const rows = (await t.db.query(`SELECT * FROM ${table}`)) as Record<string, unknown>[];
      out[table] = rows.map((r) => JSON.stringify(Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number.isNaN(Number(v)) ? v : Number(v)])))).sort();
    }
    return out;
  };

  beforeAll(async () => {
    t = await startTestApp({ ROLLUP_APPLY_INTERVAL_MS: '3600000' });
    all = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    // the demo's opening stock is in the ledger without a journal row: a rebuild takes it in
    await t.app.get(RollupRebuildService).rebuild(() => undefined);
    await apply();
  });
  afterAll(() => t.close());

  it('a sale writes one journal row (the sale and its stock movements) and reaches the report once applied', async () => {
    const before = await salesReport();
    const count = fig(before.body, 'sales_count');
    expect(before.body.meta.as_of).toBe(before.body.meta.generated_at);

    const sold = await sell([{ sku: 'BEV-001', qty: 2 }]);
    if (sold.status !== 201) throw new Error(JSON.stringify(sold.body));
    const rows = await journalRows();
    expect(rows).toHaveLength(1);
    const entries = JSON.parse(rows[0].entries) as { kind: string; facts?: { sale: { id: number } } }[];
    expect(entries.map((e) => e.kind).sort()).toEqual(['moves', 'sale']);
    expect(entries.find((e) => e.kind === 'sale')!.facts!.sale.id).toBe(sold.body.data.id);

    // pending: not in the figures yet, and as_of says so (the pending row's time, not generated_at)
    const pending = await salesReport();
    expect(fig(pending.body, 'sales_count')).toBe(count);
    expect(new Date(pending.body.meta.as_of).getTime()).toBeLessThanOrEqual(new Date(pending.body.meta.generated_at).getTime());
    const [{ created_at }] = await t.db.query('SELECT created_at FROM rpt_journal');
    const written = created_at instanceof Date ? created_at : new Date(String(created_at).replace(' ', 'T') + 'Z');
    expect(Math.abs(new Date(pending.body.meta.as_of).getTime() - written.getTime())).toBeLessThan(1000);

    expect(await apply()).toBe(1);
    expect(await journalRows()).toHaveLength(0);
    const after = await salesReport();
    expect(fig(after.body, 'sales_count')).toBe((count ?? 0) + 1);
    expect(after.body.meta.as_of).toBe(after.body.meta.generated_at);
    // applied once only
    expect(await apply()).toBe(0);
    expect(fig((await salesReport()).body, 'sales_count')).toBe((count ?? 0) + 1);
  });

  it('a sale that fails writes nothing to the journal', async () => {
    const wrongTotal = await sell([{ sku: 'GRO-001', qty: 1 }], 'cash', 0.01);
    expect(wrongTotal.status).toBe(400);
    // refused inside the sale's transaction (the ledger's guard, the shelf emptied after the price
    // was shown): the sale, its movements and its journal row roll back together
    const priced = await api()
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: 'journal-price',
        items: [{ id: ids['GRO-001'], qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 0.01 }],
        total_amount: 0.01,
      });
    await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(manager))
      .send({ type: 'count', warehouse_id: 1, items: [{ item_id: ids['GRO-001'], quantity: 0 }] })
      .expect(201);
    expect(await apply()).toBe(1);
    const refused = await sell([{ sku: 'GRO-001', qty: 1 }], 'cash', Number(priced.body.server_total));
    expect([refused.status, refused.body.code]).toEqual([409, 'insufficient_stock']);
    expect(await journalRows()).toHaveLength(0);
  });

  it('a void and a stock adjustment are journalled too; applied, the rollups equal a rebuild from the raw records', async () => {
    const a = await sell([{ sku: 'SNK-001', qty: 1 }]);
    const b = await sell(
      [
        { sku: 'GRO-002', qty: 2 },
        { sku: 'HSE-001', qty: 1 },
      ],
      'card',
    );
    expect([a.status, b.status]).toEqual([201, 201]);
    await api().post(`/api/v1/sales/${a.body.data.id}/void`).set(bearer(manager)).send({}).expect(200);
    const adj = await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(manager))
      .send({ type: 'damage', warehouse_id: 1, items: [{ item_id: ids['GRO-002'], quantity: 1 }] });
    expect(adj.status).toBe(201);
    expect((await journalRows()).length).toBe(4);

    // several appliers at once (replicas): each row is applied exactly once
    const applied = await Promise.all([apply(), apply(), apply()]);
    expect(applied.reduce((x, y) => x + y, 0)).toBe(4);
    const kept = await rollupDump();
    await t.app.get(RollupRebuildService).rebuild(() => undefined);
    expect(await rollupDump()).toEqual(kept);
  });

  it('a rebuild with rows still pending takes them in once and leaves none behind', async () => {
    const kept = await rollupDump();
    const sold = await sell([{ sku: 'BEV-003', qty: 1 }]);
    expect(sold.status).toBe(201);
    expect(await journalRows()).toHaveLength(1);
    const report = await t.app.get(RollupRebuildService).rebuild(() => undefined);
    expect(report.sales).toBeGreaterThan(0);
    expect(await journalRows()).toHaveLength(0);
    expect(await apply()).toBe(0);
    const rebuilt = await rollupDump();
    expect(rebuilt).not.toEqual(kept);
    // the same as applying it would have given
    await t.app.get(RollupRebuildService).rebuild(() => undefined);
    expect(await rollupDump()).toEqual(rebuilt);
  });
});

describe('Report journal: the periodic applier', () => {
  let t: TestApp;

  // In-process queue (no Redis): this process runs periodic work, the applier every 100 ms.
  beforeAll(async () => (t = await startTestApp({ ROLLUP_APPLY_INTERVAL_MS: '100', REDIS_URL: '' })));
  afterAll(() => t.close());

  it('picks up what sales journal within a few intervals', async () => {
    const cashier = await login(t, DEMO.cashier);
    const [{ id }] = await t.db.query("SELECT id FROM items WHERE sku = 'BEV-001'");
    await request(t.http).post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    const body = { store_id: 1, idempotency_key: 'periodic-1', items: [{ id: Number(id), qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 10 }] };
    const priced = await request(t.http)
      .post('/api/v1/pos/checkout/validate')
      .set(bearer(cashier))
      .send({ ...body, total_amount: 0.01 });
    const sold = await request(t.http)
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ ...body, total_amount: Number(priced.body.server_total) });
    expect(sold.status).toBe(201);
    const deadline = Date.now() + 5000;
    let left = 1;
    while (Date.now() < deadline && (left = Number((await t.db.query('SELECT COUNT(*) AS n FROM rpt_journal'))[0].n)) > 0)
      await new Promise((r) => setTimeout(r, 50));
    expect(left).toBe(0);
    const [{ n }] = await t.db.query('SELECT COUNT(*) AS n FROM rpt_sales WHERE span = 0 AND sales_count > 0');
    expect(Number(n)).toBeGreaterThan(0);
  });
});
