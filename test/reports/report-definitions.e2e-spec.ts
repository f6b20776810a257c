import request from 'supertest';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, fig, report } from './report-helpers';

/**
 * Report figures whose definition issue 23 settled, each on a small story of its own (the
 * independent recomputation of every figure is test/invariants/reports-fixed.e2e-spec.ts):
 * the demo seed's opening stock is in the reports; a return's money counts in the warehouse its
 * line was sold from, its goods' movements where they came back to; a credit note is neither a
 * payment nor money collected; a voided sale sells nothing; a transfer is not a receipt.
 * Warehouses of the demo: Downtown Floor (1, store 1), Central (3, standalone, serving both stores).
 */
describe('Report definitions (issue 23)', () => {
  let t: TestApp;
  let all: string;
  let admin: string;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  let jane: string;
  const FLOOR = 1;
  const CENTRAL = 3;
  const api = () => request(t.http);
  let n = 0;

  const ok = async (res: request.Test, status = 200) => {
    const r = await res;
    if (r.status !== status) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
    return r.body.data;
  };
  /** Sells at the server's price, paid all by one method, or as `pay` splits the total. */
  async function sell(items: Record<string, unknown>[], pay: 'card' | 'on_account' | ((total: number) => Record<string, unknown>[]), customer?: string) {
    const body = { store_id: 1, items, ...(customer ? { customer_id: customer } : {}) };
    const total = (await ok(api().post('/api/v1/pricing/cart').set(bearer(cashier)).send(body))).total as number;
    const payments = typeof pay === 'function' ? pay(total) : [{ payment_method_code: pay, amount: total }];
    return (await ok(
      api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send({ ...body, idempotency_key: `def-${++n}`, payments, total_amount: total }),
      201,
    )) as { id: number; total_amount: number; items: { id: number }[]; invoice: { id: number } };
  }
  const returned = (sale: { id: number; items: { id: number }[] }, quantity: number, condition: string, warehouseId?: number) =>
    ok(
      api()
        .post('/api/v1/returns')
        .set(bearer(manager))
        .send({
          sale_id: String(sale.id),
          items: [{ sale_item_id: String(sale.items[0].id), quantity, condition, ...(warehouseId ? { warehouse_id: warehouseId } : {}) }],
          process_immediately: true,
        }),
    );
  const adjust = (body: Record<string, unknown>) => ok(api().post('/api/v1/inventory/adjustments').set(bearer(admin)).send(body), 201);
  const rowOf = <T extends Record<string, unknown>>(body: { data: { rows: T[] } }, key: string, value: unknown): T | undefined =>
    body.data.rows.find((r) => r[key] === value);

  beforeAll(async () => {
    t = await startTestApp();
    all = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    [admin, cashier, manager] = [await login(t, DEMO.admin), await login(t, DEMO.cashier), await login(t, DEMO.manager)];
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    jane = String((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    await ok(api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }));
  });
  afterAll(() => t.close());

  it("a fresh demo database: the seed's opening stock is received in the reports as in the ledger", async () => {
    const [ledger] = await t.db.query("SELECT COUNT(*) AS n, SUM(quantity) AS units FROM stock_movements WHERE type = 'receive'");
    expect(Number(ledger.n)).toBeGreaterThan(0);
    const movement = await report(t, all, 'inventory/movement');
    expect(rowOf(movement.body, 'type', 'receive')).toMatchObject({ movements: Number(ledger.n), units_in: Number(ledger.units) });
    expect(fig(movement.body, 'units_in', null)).toBe(Number(ledger.units));
    expect(fig((await report(t, all, 'inventory/overview')).body, 'units_received', null)).toBe(Number(ledger.units));
  });

  it('a return counts where its line was sold from (refund, cost, credit note), its goods where they came back to', async () => {
    const central = { warehouse_id: CENTRAL };
    const floor = { store_id: 1, warehouse_id: FLOOR };
    const movesBefore = (await report(t, all, 'inventory/movement', central)).body;
    // 2 Ground Coffee (cost 6.10 each) from the floor; 1 comes back spoiled to Central and is written off there.
    const sale = await sell([{ id: ids['COF-002'], qty: 2 }], 'card');
    const back = await returned(sale, 1, 'spoiled', CENTRAL);
    expect(back.credit_note).toBeTruthy();

    const notes = (path: Record<string, number>) => report(t, all, 'invoices/credit-notes', path);
    expect((await notes(central)).body.data.rows).toEqual([]);
    expect((await notes(floor)).body.data.rows).toEqual([expect.objectContaining({ sale_id: sale.id, credit_note_amount: back.credit_note.amount })]);
    expect(fig((await report(t, all, 'invoices', central)).body, 'credit_notes')).toBe(0);
    expect(fig((await report(t, all, 'invoices', floor)).body, 'credit_notes')).toBe(1);

    // COGS: 12.20 sold less 6.10 returned, on the floor; Central sold none and takes back none (not -6.10).
    const coffee = (body: { data: { rows: Record<string, unknown>[] } }) => rowOf(body, 'sku', 'COF-002');
    expect(coffee((await report(t, all, 'inventory/turns', floor)).body)).toMatchObject({ cogs: 6.1 });
    expect(coffee((await report(t, all, 'inventory/turns', central)).body)?.cogs ?? 0).toBe(0);
    expect(fig((await report(t, all, 'inventory/turns', central)).body, 'cogs')).toBe(0);
    expect((await report(t, all, 'returns', central)).body.data.rows).toEqual([]);
    expect((await report(t, all, 'returns', floor)).body.data.rows).toEqual([expect.objectContaining({ condition: 'spoiled', units_returned: 1, cost: 6.1 })]);
    const payments = (await report(t, all, 'payments', floor)).body;
    expect(rowOf(payments, 'method_code', 'card')).toMatchObject({ refund_count: 1, refunded: back.refund_total });

    // The goods: in at Central and written off there (a return and a spoilage movement), none on the floor.
    const moves = (await report(t, all, 'inventory/movement', central)).body;
    const delta = (type: string, k: 'units_in' | 'units_out') =>
      Number(rowOf(moves, 'type', type)?.[k] ?? 0) - Number(rowOf(movesBefore, 'type', type)?.[k] ?? 0);
    expect([delta('return', 'units_in'), delta('spoilage', 'units_out')]).toEqual([1, 1]);
    const floorMoves = (await report(t, all, 'inventory/movement', floor)).body;
    expect(rowOf(floorMoves, 'type', 'return')).toBeUndefined();
    expect(rowOf(floorMoves, 'type', 'sale')).toMatchObject({ units_out: 2 });
  });

  it('a credit note is neither a payment nor money collected: invoices and the funnel', async () => {
    // Four on-account invoices: returned whole (credited), paid in full later, paid 1.00 of it later, and one
    // owing what 20.00 by card left whose half returned settles it: the refund goes to the tenders in the
    // order paid, the on-account one first, within what is owed.
    const credited = await sell([{ id: ids['SNK-003'], qty: 1 }], 'on_account', jane);
    const paid = await sell([{ id: ids['HSE-001'], qty: 1 }], 'on_account', jane);
    const part = await sell([{ id: ids['GRO-001'], qty: 1 }], 'on_account', jane);
    const settled = await sell(
      [{ id: ids['COF-002'], qty: 2 }],
      (total) => [
        { payment_method_code: 'on_account', amount: Math.round((total - 20) * 100) / 100 },
        { payment_method_code: 'card', amount: 20 },
      ],
      jane,
    );
    await returned(credited, 1, 'resellable');
    const owed = Math.round((settled.total_amount - 20) * 100) / 100;
    expect((await returned(settled, 1, 'resellable')).credit_note).toMatchObject({ on_account: owed });
    expect((await ok(api().get(`/api/v1/invoices/${settled.invoice.id}`).set(bearer(manager)))).balance).toBe(0);
    const pay = (sale: { invoice: { id: number } }, amount: number) =>
      ok(api().post(`/api/v1/invoices/${sale.invoice.id}/payments`).set(bearer(manager)).send({ payment_method_code: 'cash', amount }), 201);
    await pay(paid, paid.total_amount);
    await pay(part, 1);

    const invoices = (await report(t, all, 'invoices', { store_id: 1 })).body;
    expect(fig(invoices, 'on_account_invoices')).toBe(4);
    // what was paid after the sale: not what credit notes cancelled
    expect(fig(invoices, 'collected_on_account')).toBe(Math.round((paid.total_amount + 1) * 100) / 100);
    const funnel = (await report(t, all, 'invoices/funnel', { store_id: 1 })).body;
    const stage = (s: string) => rowOf(funnel, 'stage', s);
    expect(stage('issued')).toMatchObject({ invoices: 4 });
    // a payment after the sale: the one paid in full and the one paid in part; not the credited, not the settled one
    expect(stage('any_payment')).toMatchObject({ invoices: 2 });
    // owing nothing and not cancelled whole: paid later in full, and the one the return settled (20.00 of it paid at the till)
    expect(stage('paid_in_full')).toMatchObject({ invoices: 2 });
    expect(stage('partially_paid')).toMatchObject({ invoices: 1 });
    expect(stage('unpaid')).toMatchObject({ invoices: 0 });
    expect(fig(funnel, 'paid_in_full')).toBe(2);
    expect(fig(funnel, 'collection_rate')).toBe(50);
  });

  it('a voided sale sells nothing: overview and replenishment', async () => {
    const item = (await ok(
      api()
        .post('/api/v1/items')
        .set(bearer(admin))
        .send({ sku: 'DEF-VOID', name: 'Definitions void item', base_price: 5, cost: 2, reorder_level: 100, reorder_quantity: 10 }),
      201,
    )) as { id: number };
    await adjust({ type: 'receive', warehouse_id: FLOOR, items: [{ item_id: item.id, quantity: 20 }] });
    const floor = { store_id: 1, warehouse_id: FLOOR };
    const before = fig((await report(t, all, 'inventory/overview', floor)).body, 'sale_units_out', null) ?? 0;
    await sell([{ id: item.id, qty: 2 }], 'card');
    const voided = await sell([{ id: item.id, qty: 3 }], 'card');
    await ok(api().post(`/api/v1/sales/${voided.id}/void`).set(bearer(manager)).send({ reason: 'definitions' }));

    expect(fig((await report(t, all, 'inventory/overview', floor)).body, 'sale_units_out', null)).toBe(before + 2);
    const replenish = (await report(t, all, 'inventory/replenishment', floor)).body;
    expect(rowOf(replenish, 'item_id', item.id)).toMatchObject({ on_hand: 18, units_sold_in_period: 2 });
  });

  it('a transfer between warehouses is not a receipt; a receive adjustment is', async () => {
    const received = async (scope: Record<string, number>) => ({
      overview: fig((await report(t, all, 'inventory/overview', scope)).body, 'units_received', null) ?? 0,
    });
    const [chain, store] = [await received({}), await received({ store_id: 1 })];
    await adjust({ type: 'transfer', warehouse_id: CENTRAL, to_warehouse_id: FLOOR, items: [{ item_id: ids['HSE-004'], quantity: 5 }] });
    expect([await received({}), await received({ store_id: 1 })]).toEqual([chain, store]);
    await adjust({ type: 'receive', warehouse_id: FLOOR, items: [{ item_id: ids['HSE-004'], quantity: 4 }] });
    expect((await received({ store_id: 1 })).overview).toBe(store.overview + 4);
    // damage-spoilage divides by the same receipts
    await adjust({ type: 'damage', warehouse_id: FLOOR, items: [{ item_id: ids['HSE-004'], quantity: 1 }] });
    const losses = (await report(t, all, 'inventory/damage-spoilage', { store_id: 1 })).body;
    const written = (fig(losses, 'damaged_units', null) ?? 0) + (fig(losses, 'spoiled_units', null) ?? 0);
    expect(fig(losses, 'written_off_per_received', null)).toBe(Math.round((written / (store.overview + 4)) * 10_000) / 100);
  });
});
