import { bearer, expectErrorEnvelope, integrationToken, TestApp } from '../support/test-app';
import { bootReturns, returnsTools } from './returns-helpers';

/**
 * Returns at the edges: serial numbers back in stock, voids, the return window, other stores,
 * permissions. Setup in returns-helpers.ts.
 */
describe('Returns: partial and full refunds, the workflow, stock, credit notes and sessions', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let admin: string;
  let ids: Record<string, number>;
  const { api, sell, createReturn, act } = returnsTools(() => ({ t, cashier, manager }));

  beforeAll(async () => {
    ({ t, cashier, manager, admin, ids } = await bootReturns());
  });
  afterAll(() => t.close());

  it('puts a returned serial number back in stock', async () => {
    const [serial] = await t.db.query(
      "SELECT s.serial FROM serial_numbers s JOIN items i ON i.id = s.item_id WHERE i.sku = 'ELC-002' AND s.warehouse_id = 1 AND s.status = 'in_stock' ORDER BY s.serial LIMIT 1",
    );
    // earbuds 49.99 + 8.25% 4.12 (4.124175) = 54.11
    const sale = await sell({
      items: [{ id: ids['ELC-002'], qty: 1, serial_number: serial.serial }],
      payments: [{ payment_method_code: 'card', amount: 54.11 }],
      total_amount: 54.11,
    });
    expect(sale.status).toBe(201);
    const status = async () => (await t.db.query('SELECT status FROM serial_numbers WHERE serial = ?', [serial.serial]))[0].status;
    expect(await status()).toBe('sold');
    const r = await createReturn(
      { sale_id: sale.body.data.id, process_immediately: true, items: [{ sale_item_id: sale.body.data.items[0].id, quantity: 1 }] },
      manager,
    );
    expect(r.status).toBe(200);
    expect(r.body.data.items[0]).toMatchObject({ serial_number: serial.serial, refund_total: 54.11 });
    expect(await status()).toBe('in_stock');
  });

  it('refuses to receive a sold serial (a return brings it back), so a unit is never counted twice', async () => {
    const [serial] = await t.db.query(
      "SELECT s.serial FROM serial_numbers s JOIN items i ON i.id = s.item_id WHERE i.sku = 'ELC-002' AND s.warehouse_id = 1 AND s.status = 'in_stock' ORDER BY s.serial DESC LIMIT 1",
    );
    const sale = await sell({
      items: [{ id: ids['ELC-002'], qty: 1, serial_number: serial.serial }],
      payments: [{ payment_method_code: 'card', amount: 54.11 }],
      total_amount: 54.11,
    });
    expect(sale.status).toBe(201);
    const level = async () =>
      Number((await t.db.query('SELECT quantity FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [ids['ELC-002']]))[0].quantity);
    const inStock = async () =>
      Number(
        (await t.db.query("SELECT COUNT(*) AS n FROM serial_numbers WHERE item_id = ? AND warehouse_id = 1 AND status = 'in_stock'", [ids['ELC-002']]))[0].n,
      );
    const before = { level: await level(), serials: await inStock() };
    expect(before.level).toBe(before.serials);
    // the pending return first: receiving the unit while it waits must not count it twice either
    const pending = await createReturn({ sale_id: sale.body.data.id, items: [{ sale_item_id: sale.body.data.items[0].id, quantity: 1 }] }, manager);
    expect(pending.status).toBe(200);
    const received = await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(manager))
      .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: ids['ELC-002'], quantity: 1, serial_numbers: [serial.serial] }] });
    expectErrorEnvelope(received, 422);
    expect(received.body.errors['items.0.serial_numbers'][0]).toMatch(/^Sold: .*return of its sale/);
    expect({ level: await level(), serials: await inStock() }).toEqual(before);
    // the return brings it back once: level and serials in step
    expect((await act(pending.body.data.id, 'approve', manager)).status).toBe(200);
    expect((await act(pending.body.data.id, 'process', manager)).status).toBe(200);
    expect({ level: await level(), serials: await inStock() }).toEqual({ level: before.level + 1, serials: before.serials + 1 });
  });

  it('refuses voided sales and sales outside the return window (422), and says why at check-sale', async () => {
    const voided = await sell({ items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 2.7 }], total_amount: 2.7 });
    await api().post(`/api/v1/sales/${voided.body.data.id}/void`).set(bearer(manager)).send({}).expect(200);
    const check = await api().get(`/api/v1/returns/check-sale?sale_id=${voided.body.data.id}`).set(bearer(cashier));
    expect(check.body.data).toMatchObject({ eligible: false, reason: 'sale_voided' });
    const v = await createReturn({ sale_id: voided.body.data.id, items: [{ sale_item_id: voided.body.data.items[0].id, quantity: 1 }] });
    expect(v.status).toBe(422);
    expect(v.body.errors.sale_id[0]).toMatch(/voided/);

    const old = await sell({ items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 2.7 }], total_amount: 2.7 });
    const longAgo = new Date(Date.now() - 31 * 86_400_000);
    await t.db.query('UPDATE sales SET created_at = ? WHERE id = ?', [
      t.isMysql ? longAgo : longAgo.toISOString().replace('T', ' ').replace('Z', ''),
      old.body.data.id,
    ]);
    const expired = await api().get(`/api/v1/returns/check-sale?sale_id=${old.body.data.id}`).set(bearer(cashier));
    expect(expired.body.data).toMatchObject({ eligible: false, reason: 'return_window_expired' });
    const e = await createReturn({ sale_id: old.body.data.id, items: [{ sale_item_id: old.body.data.items[0].id, quantity: 1 }] });
    expect(e.status).toBe(422);
    expect(e.body.errors.sale_id[0]).toMatch(/return window of 30 day/);
  });

  it("hides other stores' sales and returns (404), and refuses another store as a filter (403)", async () => {
    await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: 2, opening_balance: 0 }).expect(200);
    // Airport (tax-inclusive, 7.5%): chocolate bar at the airport price 2.99
    const airport = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send({
        store_id: 2,
        idempotency_key: 'ret-airport',
        items: [{ id: ids['SNK-002'], qty: 1 }],
        payments: [{ payment_method_code: 'card', amount: 2.99 }],
        total_amount: 2.99,
      });
    expect(airport.status).toBe(201);
    const ap = airport.body.data;
    const r = await createReturn({ sale_id: ap.id, items: [{ sale_item_id: ap.items[0].id, quantity: 1 }] }, admin);
    expect(r.status).toBe(200);
    // the tax held in the price comes back with it; refund_net is before tax in either tax mode (one definition)
    expect(r.body.data).toMatchObject({ number: 'RET-AP-000001', refund_total: 2.99, refund_net: 2.78, refund_tax: 0.21 });
    expectErrorEnvelope(await api().get(`/api/v1/returns/check-sale?sale_id=${ap.id}`).set(bearer(cashier)), 404);
    expectErrorEnvelope(await api().get(`/api/v1/returns/${r.body.data.id}`).set(bearer(cashier)), 404);
    expectErrorEnvelope(await act(r.body.data.id, 'cancel', cashier), 404);
    expectErrorEnvelope(await createReturn({ sale_id: ap.id, items: [{ sale_item_id: ap.items[0].id, quantity: 1 }] }), 404);
    expectErrorEnvelope(await api().get('/api/v1/returns?store_id=2').set(bearer(cashier)), 403);
    expectErrorEnvelope(await api().get('/api/v1/returns/check-sale?sale_id=99999999').set(bearer(cashier)), 404);
    expectErrorEnvelope(await api().get('/api/v1/returns/99999999').set(bearer(cashier)), 404);
    expectErrorEnvelope(await api().get('/api/v1/returns/abc').set(bearer(cashier)), 404);
    const mine = await api().get('/api/v1/returns?per_page=100').set(bearer(cashier));
    expect(mine.body.data.every((x: { store: { id: number } }) => x.store.id === 1)).toBe(true);
    const all = await api().get('/api/v1/returns?per_page=100').set(bearer(admin));
    expect(all.body.meta.total).toBe(mine.body.meta.total + 1);
  });

  it('needs returns.process to process at once (403), and returns.create to create', async () => {
    const sale = await sell({ items: [{ id: ids['SNK-001'], qty: 1 }], payments: [{ payment_method_code: 'cash', amount: 2.7 }], total_amount: 2.7 });
    const body = { sale_id: sale.body.data.id, process_immediately: true, items: [{ sale_item_id: sale.body.data.items[0].id, quantity: 1 }] };
    expectErrorEnvelope(await createReturn(body, cashier), 403);
    const { token } = await integrationToken(t, ['returns.view'], ['*']);
    expectErrorEnvelope(await createReturn({ ...body, process_immediately: false }, token), 403);
    expectErrorEnvelope(await api().post('/api/v1/returns').send(body), 401);
  });
});
