import request from 'supertest';
import { RollupRebuildService } from '@pos/integration';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { createYenStore } from '../support/yen-store';
import { ALL_REPORT_PERMISSIONS, report } from '../reports/report-helpers';
import { dayIn, dayNumber, dayOf, ReportFilters } from './recompute-common';
import { INVOICE_REPORTS } from './recompute-invoices';
import { compareReport, INVENTORY_REPORTS } from './recompute-inventory';

/**
 * The invoice and inventory report families against their independent recomputation from the raw
 * tables (recompute-invoices.ts, recompute-inventory.ts), on a small history made through the API
 * in three stores: Downtown (USD, tax-exclusive, New York), Airport (USD, tax-inclusive) and a
 * Tokyo store (JPY, 0 decimals, Asia/Tokyo; there is no API to create a store, so it is inserted
 * as test/sales/jpy-store.e2e-spec.ts does). Every report is compared under six scopes and two
 * periods; any difference fails, except the service defects in KNOWN_MISMATCH (one entry per
 * defect; REPORTS_KNOWN_MISMATCH=1 runs them too, and fails while they stand). REPORTS_PRINT=1 prints
 * every difference found, known ones included.
 */
const KNOWN_MISMATCH: { id: string; match: RegExp; why: string }[] = [];
const RECOMPUTE = { ...INVOICE_REPORTS, ...INVENTORY_REPORTS };
const strict = process.env.REPORTS_KNOWN_MISMATCH === '1';
const known = (line: string) => KNOWN_MISMATCH.find((k) => k.match.test(line));

describe('Invoice and inventory reports against their recomputation from the raw tables', () => {
  let t: TestApp;
  let token: string;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: Record<string, number>;
  let jane: string;
  let tk: number;
  let tkWh: number;
  const api = () => request(t.http);
  const q = (sql: string, params?: unknown[]) => t.db.query(sql, params);
  const at = (d: Date) => (t.isMysql ? d : d.toISOString().replace('T', ' ').replace('Z', ''));
  let n = 0;

  async function sell(token: string, storeId: number, items: Record<string, unknown>[], pay: (total: number) => Record<string, unknown>[], customer?: string) {
    const body = { store_id: storeId, items, ...(customer ? { customer_id: customer } : {}) };
    // validate prices a checkout cart as it stands (its warehouse_id included) without a total
    const priced = await api().post('/api/v1/pos/checkout/validate').set(bearer(token)).send(body);
    if (priced.status !== 200) throw new Error(`price: ${priced.status} ${JSON.stringify(priced.body)}`);
    const total = priced.body.data.total as number;
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(token))
      .send({ ...body, idempotency_key: `fixed-${++n}`, payments: pay(total), total_amount: total });
    if (res.status !== 201) throw new Error(`checkout: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number; total_amount: number; items: { id: number }[]; invoice: { id: number } };
  }
  const onAccount = (total: number) => [{ payment_method_code: 'on_account', amount: total }];
  const cash = (extra: number) => (total: number) => [{ payment_method_code: 'cash', amount: Math.round((total + extra) * 100) / 100 }];
  const card = (total: number) => [{ payment_method_code: 'card', amount: total }];
  const ok = async (res: request.Test, status = 200) => {
    const r = await res;
    if (r.status !== status) throw new Error(`${res.url}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  const adjust = (body: Record<string, unknown>) => ok(api().post('/api/v1/inventory/adjustments').set(bearer(admin)).send(body), 201);
  const item = async (sku: string, fields: Record<string, unknown>) =>
    (
      await ok(
        api()
          .post('/api/v1/items')
          .set(bearer(admin))
          .send({ sku, name: `Fixed ${sku}`, base_price: 5, cost: 2.5, ...fields }),
        201,
      )
    ).id as number;
  /** Returns units of some lines of a sale ([line index, quantity, condition, warehouse back to]), processed at once. */
  const returned = (sale: { id: number; items: { id: number }[] }, ...lines: [number, number, string, number?][]) =>
    ok(
      api()
        .post('/api/v1/returns')
        .set(bearer(manager))
        .send({
          sale_id: String(sale.id),
          items: lines.map(([line, quantity, condition, wh]) => ({ sale_item_id: String(sale.items[line].id), quantity, condition, warehouse_id: wh })),
          process_immediately: true,
        }),
    );

  /**
   * Moves a sale (its payments, invoice and stock movements) `days` back: the API cannot sell in the
   * past. The rollups are rebuilt afterwards, as `npm run reports:rebuild` would.
   */
  async function backdate(saleId: number, days: number) {
    const when = new Date(Date.now() - days * 86_400_000);
    const due = new Date(when.getTime() + 30 * 86_400_000);
    await q('UPDATE sales SET created_at = ?, updated_at = ? WHERE id = ?', [at(when), at(when), saleId]);
    await q('UPDATE sale_payments SET created_at = ? WHERE sale_id = ?', [at(when), saleId]);
    await q('UPDATE invoices SET issued_at = ?, due_at = ?, created_at = ? WHERE sale_id = ?', [at(when), at(due), at(when), saleId]);
    await q("UPDATE stock_movements SET created_at = ? WHERE reference_type = 'sale' AND reference_id = ?", [at(when), String(saleId)]);
  }

  /** Every difference between the reports and the recomputation, one line each, prefixed by the scope and period. */
  async function differences(label: string, scopes: Record<string, Partial<ReportFilters>>, paths = Object.keys(RECOMPUTE)): Promise<string[]> {
    const now = new Date();
    const today = [1, 2, tk].map((s) => dayIn(now, s === tk ? 'Asia/Tokyo' : 'America/New_York')).sort()[2];
    const out: string[] = [];
    for (const [name, scope] of Object.entries(scopes)) {
      for (const days of [30, 200]) {
        const filters = { ...scope, date_from: dayOf(dayNumber(today) - days + 1), date_to: today };
        for (const path of paths) {
          const res = await report(t, token, path, filters as Record<string, string | number>);
          if (res.status !== 200) out.push(`[${label}] ${path} ${name}: ${res.status} ${JSON.stringify(res.body)}`);
          const expected = await RECOMPUTE[path as keyof typeof RECOMPUTE](q, filters, new Date());
          out.push(...compareReport(res.body, expected).map((line) => `[${label}] ${line}  (${name}, ${days} days)`));
        }
      }
    }
    return out;
  }
  const unexplained = (lines: string[]) => (strict ? lines : lines.filter((l) => !known(l)));

  beforeAll(async () => {
    // Reports read stores and warehouses through a directory cached 30 s (REPORTS_DIRECTORY_TTL_MS): the Tokyo store is inserted mid-story.
    t = await startTestApp({ REPORTS_DIRECTORY_TTL_MS: '0' });
    token = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    [admin, manager, cashier] = [await login(t, DEMO.admin), await login(t, DEMO.manager), await login(t, DEMO.cashier)];
    ids = Object.fromEntries((await q('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    jane = String((await q("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
  });
  afterAll(() => t.close());

  it('on the demo data as seeded, the reports equal their recomputation', async () => {
    tk = -1;
    const lines = await differences('seed', { all: {} }, ['inventory/movement', 'inventory/overview', 'inventory/stock', 'inventory/valuation']);
    if (process.env.REPORTS_PRINT === '1') console.log(lines.join('\n'));
    expect(unexplained(lines)).toEqual([]);
  });

  it('after a varied history, every report of both families equals its recomputation in every scope', async () => {
    // The seed's opening stock, 400 days back, so the rest of the story is read through the rollups alone.
    await q("UPDATE stock_movements SET created_at = ? WHERE reference_type = 'seed'", [at(new Date(Date.now() - 400 * 86_400_000))]);
    ({ storeId: tk, warehouseId: tkWh } = await createYenStore(t, { paymentMethods: 'all' }));

    // Items of the story: low, out (then negative through an offline sale), a warehouse's own reorder level, dead and live stock.
    const [snacks] = await q("SELECT id FROM categories WHERE slug = 'snacks'");
    const low = await item('FX-LOW', { reorder_level: 5, reorder_quantity: 12, category_id: Number(snacks.id) });
    const out = await item('FX-OUT', { reorder_level: 2, reorder_quantity: 1, cost: 1, base_price: 2 });
    const ovr = await item('FX-OVR', { reorder_level: 1, reorder_quantity: 10, warehouse_reorder_levels: [{ warehouse_id: 3, reorder_level: 30 }] });
    const dead = await item('FX-DEAD', { cost: 3, category_id: Number(snacks.id) });
    const live = await item('FX-LIVE', { cost: 1.25 });
    // The inactive Gift Card Sleeve at or below a reorder level of its own on the floor: still low, but never to reorder.
    await ok(
      api()
        .put(`/api/v1/items/${ids['SNK-006']}`)
        .set(bearer(admin))
        .send({ warehouse_reorder_levels: [{ warehouse_id: 1, reorder_level: 60 }] }),
    );
    await adjust({
      type: 'receive',
      warehouse_id: 1,
      items: [
        { item_id: low, quantity: 3 },
        { item_id: out, quantity: 4 },
        { item_id: ovr, quantity: 25 },
      ],
    });
    await adjust({ type: 'receive', warehouse_id: 3, items: [{ item_id: ovr, quantity: 25 }] });
    await adjust({ type: 'receive', warehouse_id: tkWh, items: [{ item_id: ids['BEV-001'], quantity: 50 }] });
    const stocked = await adjust({
      type: 'receive',
      warehouse_id: 1,
      items: [
        { item_id: dead, quantity: 10 },
        { item_id: live, quantity: 10 },
      ],
    });
    await q('UPDATE stock_movements SET created_at = ? WHERE reference_id = ?', [at(new Date(Date.now() - 150 * 86_400_000)), stocked.adjustment_id]);

    // Sales moved into the past: dead stock (120 days) and live (10 days); on-account invoices aged 45, 100 and 130 days.
    await ok(api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }));
    await ok(api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 2, opening_balance: 50 }));
    await ok(api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: tk, opening_balance: 10000 }));
    await backdate((await sell(cashier, 1, [{ id: dead, qty: 1 }], card)).id, 120);
    await backdate((await sell(cashier, 1, [{ id: live, qty: 2 }], card)).id, 10);
    await backdate((await sell(cashier, 1, [{ id: ids['COF-001'], qty: 1 }], onAccount, jane)).id, 45);
    await backdate((await sell(manager, 2, [{ id: ids['SNK-002'], qty: 2 }], onAccount, jane)).id, 100);
    await backdate((await sell(cashier, 1, [{ id: ids['GRO-005'], qty: 1 }], onAccount, jane)).id, 130);
    await t.app.get(RollupRebuildService).rebuild(() => undefined);

    // Downtown today: change, card, split, on account (paid in part, returned whole, paid in full, voided, part cash), two warehouses.
    const change = await sell(
      cashier,
      1,
      [
        { id: ids['BEV-001'], qty: 2 },
        { id: ids['BEV-003'], qty: 1 },
      ],
      cash(5.43),
    );
    const voided = await sell(cashier, 1, [{ id: ids['SNK-001'], qty: 1 }], card);
    const split = await sell(cashier, 1, [{ id: ids['COF-002'], qty: 1 }], (tot) => [
      { payment_method_code: 'card', amount: 10 },
      { payment_method_code: 'cash', amount: Math.round((tot - 10) * 100) / 100 },
    ]);
    const partly = await sell(cashier, 1, [{ id: ids['COF-002'], qty: 2 }], onAccount, jane);
    const credited = await sell(cashier, 1, [{ id: ids['SNK-003'], qty: 1 }], onAccount, jane);
    const paid = await sell(cashier, 1, [{ id: ids['HSE-001'], qty: 1 }], onAccount, jane);
    const voidedOnAccount = await sell(cashier, 1, [{ id: ids['BEV-005'], qty: 1 }], onAccount, jane);
    await sell(
      cashier,
      1,
      [{ id: ids['GRO-001'], qty: 1 }],
      (tot) => [
        { payment_method_code: 'cash', amount: 2 },
        { payment_method_code: 'on_account', amount: Math.round((tot - 2) * 100) / 100 },
      ],
      jane,
    );
    const central = await sell(cashier, 1, [{ id: ids['HSE-002'], qty: 2, warehouse_id: 3 }], card);
    const mixed = await sell(
      cashier,
      1,
      [
        { id: ids['BEV-002'], qty: 1 },
        { id: ids['BEV-004'], qty: 1, warehouse_id: 3 },
      ],
      cash(0),
    );
    for (const s of [voided, voidedOnAccount]) await ok(api().post(`/api/v1/sales/${s.id}/void`).set(bearer(manager)).send({ reason: 'fixed' }));
    await ok(api().post(`/api/v1/invoices/${partly.invoice.id}/payments`).set(bearer(manager)).send({ payment_method_code: 'card', amount: 5 }), 201);
    await ok(
      api().post(`/api/v1/invoices/${paid.invoice.id}/payments`).set(bearer(manager)).send({ payment_method_code: 'cash', amount: paid.total_amount }),
      201,
    );
    await returned(credited, [0, 1, 'resellable']);
    await returned(change, [0, 1, 'damaged']);
    await returned(split, [0, 1, 'spoiled', 3]); // written off at Central, though sold from the floor
    await returned(partly, [0, 1, 'opened']); // half of an invoice paid in part: the credit note takes what is still owed first
    await returned(central, [0, 1, 'resellable']); // a sale of the Central warehouse alone
    await returned(mixed, [1, 1, 'resellable']); // the Central line of a sale from two warehouses: the sale is in neither warehouse's scope, the return in Central's

    // Airport (prices include tax) and Tokyo (yen): cash with change, on account paid in part.
    await sell(manager, 2, [{ id: ids['BEV-003'], qty: 1 }], cash(0.01));
    await sell(manager, 2, [{ id: ids['COF-003'], qty: 1 }], onAccount, jane);
    await sell(admin, tk, [{ id: ids['BEV-001'], qty: 3 }], (tot) => [{ payment_method_code: 'cash', amount: tot + 113 }]);
    const yen = await sell(admin, tk, [{ id: ids['BEV-001'], qty: 2 }], onAccount, jane);
    await ok(api().post(`/api/v1/invoices/${yen.invoice.id}/payments`).set(bearer(admin)).send({ payment_method_code: 'cash', amount: 100 }), 201);

    // Stock: damage, spoilage, counts (one changing nothing), a transfer, a receipt, an item written off to zero, then sold offline below zero.
    await adjust({ type: 'damage', warehouse_id: 1, items: [{ item_id: ids['SNK-001'], quantity: 2 }] });
    await adjust({ type: 'spoilage', warehouse_id: 3, items: [{ item_id: ids['GRO-002'], quantity: 3 }] });
    await adjust({
      type: 'count',
      warehouse_id: 1,
      items: [
        { item_id: ids['BEV-002'], quantity: 40 },
        { item_id: ids['GRO-003'], quantity: 50 },
      ],
    });
    await adjust({ type: 'transfer', warehouse_id: 3, to_warehouse_id: 1, items: [{ item_id: ids['HSE-004'], quantity: 5 }] });
    await adjust({ type: 'receive', warehouse_id: 3, items: [{ item_id: ids['GRO-002'], quantity: 12, unit_cost: 0.7 }] });
    await adjust({ type: 'damage', warehouse_id: 1, items: [{ item_id: out, quantity: 4 }] });
    const offline = await ok(
      api()
        .post('/api/v1/sync/upload')
        .set(bearer(cashier))
        .send({
          store_id: 1,
          transactions: [
            {
              idempotency_key: 'fixed-offline',
              type: 'sale',
              offline_created_at: new Date().toISOString(),
              data: { items: [{ id: out, qty: 1, price: 2 }], payments: [{ payment_method_code: 'cash', amount: 2 }], total_amount: 2 },
            },
          ],
        }),
    );
    expect(offline.accepted).toBe(1);
    expect(Number((await q('SELECT quantity FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [out]))[0].quantity)).toBe(-1);

    const lines = await differences('story', {
      all: {},
      downtown: { store_id: 1 },
      airport: { store_id: 2 },
      tokyo: { store_id: tk },
      central: { warehouse_id: 3 },
      'downtown floor': { store_id: 1, warehouse_id: 1 },
    });
    if (process.env.REPORTS_PRINT === '1') console.log(lines.join('\n'));
    expect(unexplained(lines)).toEqual([]);
  });
});
