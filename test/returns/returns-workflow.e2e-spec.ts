import { bearer, expectErrorEnvelope, integrationToken, TestApp } from '../support/test-app';
import { bootReturns, returnsTools } from './returns-helpers';

/**
 * A sale of three lines in the Downtown store (tax-exclusive; standard 8.25%, food 2%) with a 5%
 * cart discount, paid by card 25.00 and cash 10.00, every figure worked out by hand (half away
 * from zero; the cart discount split over the lines by largest remainder):
 *   A  3 x Cola 1.79        gross 5.37   cart -0.27  net 5.10   tax 0.42 (0.42075)  total 5.52
 *   B  2 x Ground Coffee    gross 24.98  cart -1.25  net 23.73  tax 0.47 (0.4746)   total 24.20
 *   C  1 x Dish Soap 3.49   gross 3.49   cart -0.17  net 3.32   tax 0.27 (0.2739)   total 3.59
 *   subtotal 33.84, discount 1.69 (5% of 33.84 = 1.692), tax 1.16, total 33.31; change 1.69 from
 *   the cash, so cash applied 8.31 and card 25.00.
 * Return 1 (2 Cola resellable, restocked; 1 Coffee damaged): Cola net round(5.10 x 2/3) = 3.40 +
 *   tax round(0.42 x 2/3) = 0.28 -> 3.68; Coffee net round(23.73 / 2) = 11.87 (11.865) + tax
 *   round(0.235) = 0.24 -> 12.11; refund 15.79 = cash 8.31 (all the cash) + card 7.48.
 * Return 2 (the rest): Cola 5.10 - 3.40 + 0.42 - 0.28 = 1.84, Coffee 23.73 - 11.87 + 0.47 - 0.24
 *   = 12.09, Soap 3.59; refund 17.52, all to the card; 15.79 + 17.52 = 33.31 = the sale total.
 */
describe('Returns: partial and full refunds, the workflow, stock, credit notes and sessions', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  let saleId: number;
  let lines: { id: number; sku: string; total: number }[];
  let cashierSession: number;
  let managerSession: number;
  const { api, sell, createReturn, act, stock, movements } = returnsTools(() => ({ t, cashier, manager }));
  const line = (sku: string) => lines.find((l) => l.sku === sku)!.id;

  beforeAll(async () => {
    ({ t, cashier, manager, ids, cashierSession, managerSession } = await bootReturns());
  });
  afterAll(() => t.close());

  it('lists the active return reasons', async () => {
    const res = await api().get('/api/v1/returns/reasons').set(bearer(cashier));
    expect(res.status).toBe(200);
    expect(res.body.data.map((r: { code: string }) => r.code)).toEqual(['damaged', 'defective', 'wrong_item', 'changed_mind', 'other']);
  });

  it('sells three lines with a cart discount, paid by card and cash', async () => {
    const sale = await sell({
      items: [
        { id: ids['BEV-003'], qty: 3 },
        { id: ids['COF-002'], qty: 2 },
        { id: ids['HSE-001'], qty: 1 },
      ],
      cart_discount_type: 'percent',
      cart_discount_value: 5,
      payments: [
        { payment_method_code: 'card', amount: 25 },
        { payment_method_code: 'cash', amount: 10 },
      ],
      total_amount: 33.31,
    });
    expect(sale.status).toBe(201);
    expect(sale.body.data).toMatchObject({ subtotal: 33.84, discount_total: 1.69, tax_total: 1.16, total_amount: 33.31, change_amount: 1.69 });
    expect(sale.body.data.items.map((l: { net: number; tax: number; total: number }) => [l.net, l.tax, l.total])).toEqual([
      [5.1, 0.42, 5.52],
      [23.73, 0.47, 24.2],
      [3.32, 0.27, 3.59],
    ]);
    expect(sale.body.data.payments.map((p: { payment_method_code: string; amount: number }) => [p.payment_method_code, p.amount])).toEqual([
      ['card', 25],
      ['cash', 8.31],
    ]);
    saleId = sale.body.data.id;
    lines = sale.body.data.items;
  });

  it('checks the sale: eligible, every unit returnable with its amount', async () => {
    const res = await api().get(`/api/v1/returns/check-sale?sale_id=${saleId}`).set(bearer(cashier));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ sale_id: saleId, eligible: true, reason: null, return_window_days: 30, total_amount: 33.31, refunded_amount: 0 });
    expect(
      res.body.data.items.map((l: Record<string, number>) => [l.quantity, l.returned_quantity, l.pending_quantity, l.returnable_quantity, l.returnable_amount]),
    ).toEqual([
      [3, 0, 0, 3, 5.52],
      [2, 0, 0, 2, 24.2],
      [1, 0, 0, 1, 3.59],
    ]);
  });

  let first: number;
  it('creates a partial return (pending), holding its units', async () => {
    const reasonId = (await api().get('/api/v1/returns/reasons').set(bearer(cashier))).body.data[0].id;
    const res = await createReturn({
      sale_id: String(saleId),
      reason_id: String(reasonId),
      reason_notes: 'Cola was the wrong flavour; coffee bag torn',
      internal_notes: 'Checked by Cass',
      items: [
        { sale_item_id: String(line('BEV-003')), quantity: 2, condition: 'resellable', restock: true },
        { sale_item_id: line('COF-002'), quantity: 1, condition: 'damaged', notes: 'Torn bag' },
      ],
    });
    expect(res.status).toBe(200);
    first = res.body.data.id;
    expect(res.body.data).toMatchObject({
      number: 'RET-DT-000001',
      status: 'pending',
      sale_id: saleId,
      receipt_number: 'DT-000001',
      store: { id: 1, name: 'Downtown Store' },
      warehouse: { id: 1 },
      reason: { id: reasonId, code: 'damaged' },
      refund_net: 15.27,
      refund_tax: 0.52,
      refund_total: 15.79,
      refunds: [],
      credit_note: null,
    });
    expect(res.body.data.items.map((l: Record<string, unknown>) => [l.sku, l.quantity, l.condition, l.restock, l.stock_action, l.refund_total])).toEqual([
      ['BEV-003', 2, 'resellable', true, 'restock', 3.68],
      ['COF-002', 1, 'damaged', false, 'damage', 12.11],
    ]);
    const check = (await api().get(`/api/v1/returns/check-sale?sale_id=${saleId}`).set(bearer(cashier))).body.data;
    expect(check.items.map((l: Record<string, number>) => [l.pending_quantity, l.returnable_quantity, l.pending_amount, l.returnable_amount])).toEqual([
      [2, 1, 3.68, 1.84],
      [1, 1, 12.11, 12.09],
      [0, 1, 0, 3.59],
    ]);
  });

  it('refuses more than is still returnable (422 on the line quantity), and lines that are not the sale’s', async () => {
    const over = await createReturn({ sale_id: saleId, items: [{ sale_item_id: line('BEV-003'), quantity: 2 }] });
    expectErrorEnvelope(over, 422, 'The given data was invalid.');
    expect(over.body.errors['items.0.quantity'][0]).toMatch(/greater than 1/);
    const other = await createReturn({ sale_id: saleId, items: [{ sale_item_id: 999999, quantity: 1 }] });
    expect(other.status).toBe(422);
    expect(other.body.errors['items.0.sale_item_id']).toBeDefined();
    const twice = await createReturn({
      sale_id: saleId,
      items: [
        { sale_item_id: line('HSE-001'), quantity: 1 },
        { sale_item_id: line('HSE-001'), quantity: 1 },
      ],
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors['items.1.sale_item_id']).toBeDefined();
    const damagedRestock = await createReturn({
      sale_id: saleId,
      items: [{ sale_item_id: line('HSE-001'), quantity: 1, condition: 'spoiled', restock: true }],
    });
    expect(damagedRestock.status).toBe(422);
    expect(damagedRestock.body.errors['items.0.restock']).toBeDefined();
    const airportWarehouse = Number((await t.db.query("SELECT id FROM warehouses WHERE code = 'AP-MAIN'"))[0].id);
    const wrongWarehouse = await createReturn({ sale_id: saleId, items: [{ sale_item_id: line('HSE-001'), quantity: 1, warehouse_id: airportWarehouse }] });
    expect(wrongWarehouse.status).toBe(422);
    expect(wrongWarehouse.body.errors['items.0.warehouse_id']).toBeDefined();
  });

  it('rejects and cancels: units become returnable again; every wrong move is a 409', async () => {
    const rejected = await createReturn({ sale_id: saleId, items: [{ sale_item_id: line('HSE-001'), quantity: 1 }] });
    expect(rejected.status).toBe(200);
    const rid = rejected.body.data.id;
    expectErrorEnvelope(await act(rid, 'reject', cashier), 403);
    expectErrorEnvelope(await act(rid, 'process'), 409); // pending: approve first
    const r = await act(rid, 'reject', manager, { notes: 'Receipt does not match' });
    expect(r.status).toBe(200);
    expect(r.body.data).toMatchObject({ status: 'rejected', decision_notes: 'Receipt does not match', rejected_by: expect.any(Number) });
    for (const action of ['approve', 'reject', 'cancel', 'process']) expectErrorEnvelope(await act(rid, action), 409);

    const cancelled = await createReturn({ sale_id: saleId, items: [{ sale_item_id: line('HSE-001'), quantity: 1 }] });
    const cid = cancelled.body.data.id;
    expect((await act(cid, 'approve')).body.data).toMatchObject({ status: 'approved', approved_by: expect.any(Number) });
    expectErrorEnvelope(await act(cid, 'approve'), 409);
    expectErrorEnvelope(await act(cid, 'reject'), 409);
    const c = await act(cid, 'cancel', cashier);
    expect(c.status).toBe(200);
    expect(c.body.data.status).toBe('cancelled');
    for (const action of ['approve', 'reject', 'cancel', 'process']) expectErrorEnvelope(await act(cid, action), 409);

    const check = (await api().get(`/api/v1/returns/check-sale?sale_id=${saleId}`).set(bearer(cashier))).body.data;
    expect(check.items[2]).toMatchObject({ pending_quantity: 0, returnable_quantity: 1, returnable_amount: 3.59 });
    expect(check.returns.map((x: { status: string }) => x.status)).toEqual(['pending', 'rejected', 'cancelled']);
  });

  it('approves and processes the partial return: refund split to the cent, stock, credit note, sale status, session', async () => {
    const colaBefore = await stock('BEV-003');
    const coffeeBefore = await stock('COF-002');
    expectErrorEnvelope(await act(first, 'approve', cashier), 403);
    expect((await act(first, 'approve')).status).toBe(200);
    expectErrorEnvelope(await act(first, 'process', cashier), 403);
    const res = await act(first, 'process');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ status: 'processed', refund_total: 15.79, session_id: managerSession, processed_by: expect.any(Number) });
    expect(res.body.data.refunds.map((p: { payment_method_code: string; amount: number }) => [p.payment_method_code, p.amount])).toEqual([
      ['cash', 8.31],
      ['card', 7.48],
    ]);
    expect(res.body.data.credit_note).toMatchObject({ number: 'CN-DT-000001', amount: 15.79, net: 15.27, tax: 0.52, on_account: 0, sale_id: saleId });
    for (const action of ['approve', 'reject', 'cancel', 'process']) expectErrorEnvelope(await act(first, action), 409);

    // stock: the cola back on the shelf, the torn coffee in and written off
    expect(await stock('BEV-003')).toBe(colaBefore + 2);
    expect(await stock('COF-002')).toBe(coffeeBefore);
    expect(await movements(first)).toEqual([
      ['BEV-003', 'return', 2],
      ['COF-002', 'return', 1],
      ['COF-002', 'damage', -1],
    ]);

    const sale = (await api().get(`/api/v1/sales/${saleId}`).set(bearer(cashier))).body.data;
    expect(sale.status).toBe('partially_refunded');
    expect(sale.items.map((l: { returned_quantity: number }) => l.returned_quantity)).toEqual([2, 1, 0]);
    expect(sale.invoice).toMatchObject({ status: 'paid', credited: 15.79, balance: 0 });
    expect(sale.returns.map((r: { number: string; status: string }) => [r.number, r.status])).toEqual([
      ['RET-DT-000001', 'processed'],
      ['RET-DT-000002', 'rejected'],
      ['RET-DT-000003', 'cancelled'],
    ]);

    // the cash left the manager's drawer, not the cashier's
    const managerSummary = (await api().get(`/api/v1/sessions/${managerSession}/summary`).set(bearer(manager))).body.data;
    expect(managerSummary).toMatchObject({ opening_balance: 50, cash_sales: 0, cash_refunds: 8.31, expected_cash: 41.69 });
    const cashierSummary = (await api().get(`/api/v1/sessions/${cashierSession}/summary`).set(bearer(cashier))).body.data;
    expect(cashierSummary).toMatchObject({ cash_sales: 8.31, cash_refunds: 0, expected_cash: 108.31 });
  });

  it('returns the rest: the sale is refunded and the two refunds add up exactly to its total', async () => {
    const res = await createReturn(
      {
        sale_id: saleId,
        process_immediately: true,
        items: [
          { sale_item_id: line('BEV-003'), quantity: 1, condition: 'opened' },
          { sale_item_id: line('COF-002'), quantity: 1, condition: 'spoiled' },
          { sale_item_id: line('HSE-001'), quantity: 1, restock: false },
        ],
      },
      manager,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ number: 'RET-DT-000004', status: 'processed', refund_total: 17.52, approved_by: expect.any(Number) });
    expect(res.body.data.items.map((l: { refund_total: number; stock_action: string }) => [l.refund_total, l.stock_action])).toEqual([
      [1.84, 'restock'],
      [12.09, 'spoilage'],
      [3.59, 'none'],
    ]);
    expect(res.body.data.refunds.map((p: { payment_method_code: string; amount: number }) => [p.payment_method_code, p.amount])).toEqual([['card', 17.52]]);
    expect(res.body.data.credit_note).toMatchObject({ number: 'CN-DT-000002', amount: 17.52 });
    expect(await movements(res.body.data.id)).toEqual([
      ['BEV-003', 'return', 1],
      ['COF-002', 'return', 1],
      ['COF-002', 'spoilage', -1],
    ]);
    const [{ total }] = await t.db.query("SELECT SUM(refund_total) AS total FROM sale_returns WHERE sale_id = ? AND status = 'processed'", [saleId]);
    expect(Number(total)).toBe(3331);
    const [{ refunded }] = await t.db.query(
      "SELECT SUM(f.amount) AS refunded FROM return_refunds f JOIN sale_returns r ON r.id = f.return_id WHERE r.sale_id = ? AND r.status = 'processed'",
      [saleId],
    );
    expect(Number(refunded)).toBe(3331);

    const sale = (await api().get(`/api/v1/sales/${saleId}`).set(bearer(cashier))).body.data;
    expect(sale.status).toBe('refunded');
    expect(sale.items.map((l: { returned_quantity: number }) => l.returned_quantity)).toEqual([3, 2, 1]);
    expect(sale.invoice).toMatchObject({ status: 'credited', credited: 33.31, balance: 0 });

    const check = (await api().get(`/api/v1/returns/check-sale?sale_id=${saleId}`).set(bearer(cashier))).body.data;
    expect(check).toMatchObject({ eligible: false, reason: 'sale_refunded', refunded_amount: 33.31 });
    expect(check.items.every((l: { returnable_quantity: number }) => l.returnable_quantity === 0)).toBe(true);
    const again = await createReturn({ sale_id: saleId, items: [{ sale_item_id: line('HSE-001'), quantity: 1 }] });
    expect(again.status).toBe(422);
    expect(again.body.errors.sale_id[0]).toMatch(/fully refunded/);
    // a sale with returns cannot be voided
    expectErrorEnvelope(await api().post(`/api/v1/sales/${saleId}/void`).set(bearer(manager)).send({}), 409);

    const events = (await t.db.query("SELECT type, payload FROM outbox_events WHERE type LIKE 'return.%' ORDER BY id")) as { type: string; payload: string }[];
    // Every transition of the workflow is an event (issue 26): reject, approve, cancel, process.
    expect(events.map((e) => e.type)).toEqual([
      'return.created',
      'return.created',
      'return.rejected',
      'return.created',
      'return.approved',
      'return.cancelled',
      'return.approved',
      'return.processed',
      'return.created',
      'return.processed',
    ]);
    const processed = JSON.parse(events[9].payload);
    expect(processed).toMatchObject({
      return: { number: 'RET-DT-000004', status: 'processed', refund_total: 17.52 },
      sale: { id: saleId, status: 'refunded' },
    });
  });

  it('refunds an on-account sale against the invoice balance, cash first', async () => {
    const jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    // Jane (member price 10.99) x 2 ground coffee: 21.98 + 0.44 = 22.42; 5.00 cash, 17.42 on account
    const sale = await sell({
      customer_id: String(jane),
      items: [{ id: ids['COF-002'], qty: 2 }],
      payments: [
        { payment_method_code: 'cash', amount: 5 },
        { payment_method_code: 'on_account', amount: 17.42 },
      ],
      total_amount: 22.42,
    });
    expect(sale.status).toBe(201);
    const saleItem = sale.body.data.items[0].id;
    const r = await createReturn({ sale_id: sale.body.data.id, process_immediately: true, items: [{ sale_item_id: saleItem, quantity: 1 }] }, manager);
    expect(r.status).toBe(200);
    expect(r.body.data.refund_total).toBe(11.21);
    expect(r.body.data.refunds.map((p: { payment_method_code: string; amount: number }) => [p.payment_method_code, p.amount])).toEqual([
      ['cash', 5],
      ['on_account', 6.21],
    ]);
    expect(r.body.data.credit_note).toMatchObject({ amount: 11.21, on_account: 6.21 });
    const detail = (await api().get(`/api/v1/sales/${sale.body.data.id}`).set(bearer(cashier))).body.data;
    expect(detail.invoice).toMatchObject({ status: 'issued', credited: 11.21, balance: 11.21, paid: 5 });
    const rest = await createReturn({ sale_id: sale.body.data.id, process_immediately: true, items: [{ sale_item_id: saleItem, quantity: 1 }] }, manager);
    expect(rest.body.data.refunds.map((p: { payment_method_code: string; amount: number }) => [p.payment_method_code, p.amount])).toEqual([
      ['on_account', 11.21],
    ]);
    const after = (await api().get(`/api/v1/sales/${sale.body.data.id}`).set(bearer(cashier))).body.data;
    expect(after).toMatchObject({ status: 'refunded', invoice: { status: 'credited', credited: 22.42, balance: 0 } });
  });

  it('refuses to void a sale while a return of it is pending or approved (409), and voids it once the return is cancelled', async () => {
    const sold = await sell({ items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 2.7 }], total_amount: 2.7 });
    expect(sold.status).toBe(201);
    const sale = sold.body.data;
    const open = await createReturn({ sale_id: sale.id, items: [{ sale_item_id: sale.items[0].id, quantity: 1 }] });
    expect(open.body.data.status).toBe('pending');
    const voidIt = () => api().post(`/api/v1/sales/${sale.id}/void`).set(bearer(manager)).send({});
    for (const step of ['pending', 'approve']) {
      if (step === 'approve') expect((await act(open.body.data.id, 'approve')).status).toBe(200);
      const refused = await voidIt();
      expectErrorEnvelope(refused, 409);
      expect(refused.body.code).toBe('sale_has_returns');
    }
    expect((await act(open.body.data.id, 'cancel')).status).toBe(200);
    const voided = await voidIt();
    expect(voided.status).toBe(200);
    expect(voided.body.data.status).toBe('voided');
  });

  it('lists and searches returns: store, warehouse, status, dates, return number, receipt number, customer', async () => {
    const get = async (query: string) => (await api().get(`/api/v1/returns?${query}`).set(bearer(manager))).body;
    const today = new Date().toISOString().slice(0, 10);
    expect((await get('status=processed&store_id=1')).data.every((r: { status: string }) => r.status === 'processed')).toBe(true);
    expect((await get('q=RET-DT-000002')).data.map((r: { number: string }) => r.number)).toEqual(['RET-DT-000002']);
    expect((await get('q=DT-000001')).meta.total).toBe(4);
    expect((await get('q=jane.doe@example.com')).meta.total).toBe(2);
    expect((await get(`date_from=${today}&date_to=${today}&store_id=1`)).meta.total).toBeGreaterThanOrEqual(7);
    expect((await get('date_from=2000-01-01&date_to=2000-01-02')).meta.total).toBe(0);
    expect((await get('warehouse_id=1&per_page=1')).meta).toMatchObject({ per_page: 1, total: expect.any(Number) });
    expect((await get('warehouse_id=3')).meta.total).toBe(0);
    expect((await get(`sale_id=${saleId}`)).meta.total).toBe(4);
    expectErrorEnvelope(await api().get('/api/v1/returns?status=lost').set(bearer(manager)), 422);
    expectErrorEnvelope(await api().get('/api/v1/returns?date_from=yesterday').set(bearer(manager)), 422);
    const detail = await api().get(`/api/v1/returns/${first}`).set(bearer(cashier));
    expect(detail.body.data).toMatchObject({ id: first, status: 'processed', credit_note: { number: 'CN-DT-000001' } });
  });

  it('feeds returns to integrations (returns.view; /integration and /integrations)', async () => {
    const { token } = await integrationToken(t, ['returns.view']);
    const { token: noPermission } = await integrationToken(t, ['sales.view']);
    const res = await api().get('/api/v1/integration/data/returns?store_id=1&status=processed').set(bearer(token));
    expect(res.status).toBe(200);
    expect(res.body.meta).toMatchObject({ per_page: 50, current_page: 1 });
    expect(res.body.data.every((r: { status: string; store: { id: number } }) => r.status === 'processed' && r.store.id === 1)).toBe(true);
    expect((await api().get('/api/v1/integrations/data/returns?per_page=1000').set(bearer(token))).body.meta.per_page).toBe(200);
    const one = await api().get(`/api/v1/integrations/data/returns/${first}`).set(bearer(token));
    expect(one.body.data).toMatchObject({ id: first, refunds: [{ payment_method_code: 'cash' }, { payment_method_code: 'card' }] });
    expectErrorEnvelope(await api().get('/api/v1/integration/data/returns').set(bearer(noPermission)), 403);
    expectErrorEnvelope(await api().get('/api/v1/integration/data/returns').set(bearer(manager)), 403);
    expectErrorEnvelope(await api().get('/api/v1/integration/data/returns/99999').set(bearer(token)), 404);
    expectErrorEnvelope(await api().get('/api/v1/integration/data/returns?date_to=31-12-2026').set(bearer(token)), 422);
  });
});
