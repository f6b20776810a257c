import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';
import { EventSchemas, OutboxEvent, outboxAfter, outboxMark } from './event-support';

/**
 * Issue 26 item 3: the events a partner was missing (customer.deleted, item.*, price.updated,
 * return.approved/rejected/cancelled, invoice.payment_recorded). Each is written to the outbox
 * exactly once by the operation, in its transaction, with a payload matching its documented
 * `<Kind>EventData` schema; an operation refused (validation, conflict, not found) writes none.
 * On the embedded database by default and on MySQL with TEST_DB=mysql.
 */
describe('Missing events: emitted once by their operation, never by a refused one', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let schemas: EventSchemas;
  let ids: Record<string, number>;
  let janeId: number;
  let n = 0;
  const api = () => request(t.http);

  /** Runs `op` and answers what it wrote to the outbox. */
  async function eventsOf(op: () => Promise<request.Response>, status: number): Promise<OutboxEvent[]> {
    const mark = await outboxMark(t);
    const res = await op();
    if (res.status !== status) throw new Error(`expected ${status}, got ${res.status}: ${JSON.stringify(res.body)}`);
    return outboxAfter(t, mark);
  }
  const only = (events: OutboxEvent[], prefix: string) => events.filter((e) => e.type.startsWith(prefix));
  const expectValid = (e: OutboxEvent) => expect(schemas.problem(e.type, e.data)).toBeNull();

  const sell = (body: Record<string, unknown>) =>
    api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ store_id: 1, idempotency_key: `missing-events-${++n}-${Date.now()}`, ...body });
  const cashSale = async () => {
    const res = await sell({ items: [{ id: ids['BEV-001'], qty: 2 }], payments: [{ payment_method_code: 'cash', amount: 3 }], total_amount: 2.63 });
    if (res.status !== 201) throw new Error(`checkout: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number; items: { id: number }[] };
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    manager = await login(t, DEMO.manager);
    cashier = await login(t, DEMO.cashier);
    schemas = await EventSchemas.load(t);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    janeId = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
    expect((await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 50 })).status).toBe(200);
  });
  afterAll(() => t.close());

  it('customer.deleted: once, with only the id; none for the walk-in customer (409) or an unknown one (404)', async () => {
    const created = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Gone Soon', email: 'gone.soon@example.com', store_id: 1 });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;

    const events = await eventsOf(() => api().delete(`/api/v1/customers/${id}`).set(bearer(admin)), 200);
    expect(events.map((e) => e.type)).toEqual(['customer.deleted']);
    expect(events[0]).toMatchObject({ storeId: 1, data: { customer: { id } } });
    expect(JSON.stringify(events[0].data)).not.toContain('gone.soon');
    expectValid(events[0]);

    const walkIn = Number((await t.db.query('SELECT id FROM customers WHERE is_walk_in = ?', [1]))[0].id);
    expect(await eventsOf(() => api().delete(`/api/v1/customers/${walkIn}`).set(bearer(admin)), 409)).toEqual([]);
    expect(await eventsOf(() => api().delete(`/api/v1/customers/${id}`).set(bearer(admin)), 404)).toEqual([]);
    expect(await eventsOf(() => api().delete('/api/v1/customers/999999').set(bearer(admin)), 404)).toEqual([]);
  });

  it('item.created, item.updated (deactivation too), price.updated on a base-price edit, item.deleted: once each; none when refused', async () => {
    const create = () => api().post('/api/v1/items').set(bearer(admin)).send({ sku: 'EVT-001', name: 'Event beans', base_price: 12.5, cost: 6 });
    const created = await eventsOf(create, 201);
    expect(created.map((e) => e.type)).toEqual(['item.created']);
    const item = created[0].data.item as { id: number; sku: string; base_price: number; deleted_at: string | null };
    expect(item).toMatchObject({ sku: 'EVT-001', base_price: 12.5, deleted_at: null });
    expectValid(created[0]);
    // the same SKU again: 422, nothing written
    expect(await eventsOf(create, 422)).toEqual([]);

    const put =
      (body: Record<string, unknown>, id = item.id) =>
      () =>
        api().put(`/api/v1/items/${id}`).set(bearer(admin)).send(body);
    const renamed = await eventsOf(put({ name: 'Event beans 1 kg' }), 200);
    expect(renamed.map((e) => e.type)).toEqual(['item.updated']);
    expect(renamed[0].data.item).toMatchObject({ id: item.id, name: 'Event beans 1 kg', base_price: 12.5 });

    const repriced = await eventsOf(put({ base_price: 13.75 }), 200);
    expect(repriced.map((e) => e.type).sort()).toEqual(['item.updated', 'price.updated']);
    const price = repriced.find((e) => e.type === 'price.updated')!;
    expect(price.data).toEqual({ item_id: item.id, sku: 'EVT-001', name: 'Event beans 1 kg', price_book_id: null, old_price: 12.5, new_price: 13.75 });
    expect(repriced.find((e) => e.type === 'item.updated')!.data.item).toMatchObject({ base_price: 13.75 });
    repriced.forEach(expectValid);
    // the same price again: an update, no price change
    expect((await eventsOf(put({ base_price: 13.75 }), 200)).map((e) => e.type)).toEqual(['item.updated']);

    const deactivated = await eventsOf(put({ is_active: false }), 200);
    expect(deactivated.map((e) => e.type)).toEqual(['item.updated']);
    expect(deactivated[0].data.item).toMatchObject({ is_active: false });

    // refused: a category that does not exist (422), a price below zero (422), an unknown item (404)
    expect(await eventsOf(put({ category_id: 999999, base_price: 20 }), 422)).toEqual([]);
    expect(await eventsOf(put({ base_price: -1 }), 422)).toEqual([]);
    expect(await eventsOf(put({ name: 'x' }, 999999), 404)).toEqual([]);

    const deleted = await eventsOf(() => api().delete(`/api/v1/items/${item.id}`).set(bearer(admin)), 200);
    expect(deleted.map((e) => e.type)).toEqual(['item.deleted']);
    expect((deleted[0].data.item as { deleted_at: string | null }).deleted_at).toEqual(expect.any(String));
    expectValid(deleted[0]);
    expect(await eventsOf(() => api().delete(`/api/v1/items/${item.id}`).set(bearer(admin)), 404)).toEqual([]);
  });

  it('return.approved, return.rejected, return.cancelled: once per decision; a decision the state forbids (409) writes none', async () => {
    const sale = await cashSale();
    const newReturn = async () => {
      const res = await api()
        .post('/api/v1/returns')
        .set(bearer(manager))
        .send({ sale_id: String(sale.id), items: [{ sale_item_id: String(sale.items[0].id), quantity: 1 }] });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe('pending');
      return res.body.data.id as number;
    };
    const decide =
      (id: number, action: string, body: Record<string, unknown> = {}) =>
      () =>
        api().post(`/api/v1/returns/${id}/${action}`).set(bearer(manager)).send(body);

    const first = await newReturn();
    const approved = await eventsOf(decide(first, 'approve'), 200);
    expect(approved.map((e) => e.type)).toEqual(['return.approved']);
    expect(approved[0]).toMatchObject({ storeId: 1, data: { return: { id: first, status: 'approved', sale_id: sale.id } } });
    expectValid(approved[0]);
    expect(await eventsOf(decide(first, 'approve'), 409)).toEqual([]);
    expect(await eventsOf(decide(first, 'reject'), 409)).toEqual([]);

    const cancelled = await eventsOf(decide(first, 'cancel', { notes: 'Customer kept it' }), 200);
    expect(cancelled.map((e) => e.type)).toEqual(['return.cancelled']);
    expect(cancelled[0].data.return).toMatchObject({ id: first, status: 'cancelled', decision_notes: 'Customer kept it' });
    expectValid(cancelled[0]);
    expect(await eventsOf(decide(first, 'cancel'), 409)).toEqual([]);

    const second = await newReturn();
    const rejected = await eventsOf(decide(second, 'reject', { notes: 'Outside the policy' }), 200);
    expect(rejected.map((e) => e.type)).toEqual(['return.rejected']);
    expect(rejected[0].data.return).toMatchObject({ id: second, status: 'rejected' });
    expectValid(rejected[0]);
    expect(await eventsOf(decide(second, 'cancel'), 409)).toEqual([]);
    expect(await eventsOf(decide(999999, 'approve'), 404)).toEqual([]);
    // a bad body (notes too long) is refused before anything is written
    const third = await newReturn();
    expect(await eventsOf(decide(third, 'reject', { notes: 'n'.repeat(1001) }), 422)).toEqual([]);
    expect(only(await eventsOf(decide(third, 'cancel'), 200), 'return.').map((e) => e.type)).toEqual(['return.cancelled']);
  });

  it('invoice.payment_recorded: once per payment with the invoice after it; none for an overpayment (422) or a paid invoice (409)', async () => {
    const sale = await sell({
      customer_id: String(janeId),
      items: [{ id: ids['COF-002'], qty: 1 }],
      payments: [{ payment_method_code: 'on_account', amount: 11.21 }],
      total_amount: 11.21,
    });
    expect(sale.status).toBe(201);
    const invoiceId = sale.body.data.invoice.id as number;
    const pay = (body: Record<string, unknown>) => () => api().post(`/api/v1/invoices/${invoiceId}/payments`).set(bearer(manager)).send(body);

    const part = await eventsOf(pay({ payment_method_code: 'card', amount: 5, reference: 'Transfer 1' }), 201);
    expect(part.map((e) => e.type)).toEqual(['invoice.payment_recorded']);
    expect(part[0].storeId).toBe(1);
    expect(part[0].data).toMatchObject({
      invoice: { id: invoiceId, status: 'partially_paid', paid: 5, balance: 6.21 },
      payment: { payment_method_code: 'card', amount: 5, reference: 'Transfer 1' },
    });
    expectValid(part[0]);

    expect(await eventsOf(pay({ payment_method_code: 'card', amount: 7 }), 422)).toEqual([]);
    expect(await eventsOf(pay({ payment_method_code: 'no-such-method', amount: 1 }), 422)).toEqual([]);
    const rest = await eventsOf(pay({ payment_method_code: 'cash', amount: 6.21 }), 201);
    expect(rest.map((e) => e.type)).toEqual(['invoice.payment_recorded']);
    expect(rest[0].data).toMatchObject({ invoice: { status: 'paid', balance: 0, paid: 11.21 }, payment: { amount: 6.21 } });
    expect((rest[0].data.invoice as { payments: unknown[] }).payments).toHaveLength(2);
    expect(await eventsOf(pay({ payment_method_code: 'cash', amount: 1 }), 409)).toEqual([]);
  });
});
