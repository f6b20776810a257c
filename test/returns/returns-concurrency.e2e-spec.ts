import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Never refund a unit twice, never process twice, one return per idempotency key: on SQLite
 * (transactions take turns) and on MariaDB (the sale's row lock and conditional UPDATEs).
 */
describe('Returns under concurrency', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let ids: Record<string, number>;
  let n = 0;
  const api = () => request(t.http);
  const createReturn = (body: Record<string, unknown>, token = cashier) => api().post('/api/v1/returns').set(bearer(token)).send(body);

  /** Still Water 1.29 with 2% food tax, per quantity: 3 -> 3.87 + 0.08, 2 -> 2.58 + 0.05, 1 -> 1.29 + 0.03, 10 -> 12.90 + 0.26. */
  const TOTALS: Record<number, number> = { 1: 1.32, 2: 2.63, 3: 3.95, 10: 13.16 };

  /** A sale of `qty` x Still Water: up to 10.00 in cash, the rest by card. */
  async function sale(qty: number, sku = 'BEV-001') {
    const total = TOTALS[qty];
    const cash = Math.min(10, total);
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: `conc-sale-${++n}`,
        items: [{ id: ids[sku], qty }],
        payments: [
          { payment_method_code: 'cash', amount: cash },
          ...(total > cash ? [{ payment_method_code: 'card', amount: Number((total - cash).toFixed(2)) }] : []),
        ],
        total_amount: total,
      });
    if (res.status !== 201) throw new Error(`sale failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number; total_amount: number; items: { id: number; total: number }[] };
  }

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    // the refunds come out of the manager's drawer: a float to pay them from
    await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 500 }).expect(200);
  });
  afterAll(() => t.close());

  it('accepts exactly one of 10 parallel returns of the last returnable unit of a line', async () => {
    const s = await sale(3);
    const line = s.items[0].id;
    expect((await createReturn({ sale_id: s.id, items: [{ sale_item_id: line, quantity: 2 }] })).status).toBe(200);
    const results = await Promise.all(Array.from({ length: 10 }, () => createReturn({ sale_id: s.id, items: [{ sale_item_id: line, quantity: 1 }] })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((x) => x === 200)).toHaveLength(1);
    expect(statuses.filter((x) => x === 422)).toHaveLength(9);
    for (const r of results.filter((x) => x.status === 422)) expect(r.body.errors['items.0.quantity']).toBeDefined();
    const [{ held }] = await t.db.query('SELECT claimed_quantity AS held FROM sale_item_return_claims WHERE sale_item_id = ?', [line]);
    expect(Number(held)).toBe(3);
    const [{ count, total }] = await t.db.query(
      "SELECT COUNT(*) AS count, SUM(refund_total) AS total FROM sale_returns WHERE sale_id = ? AND status = 'pending'",
      [s.id],
    );
    expect(Number(count)).toBe(2);
    // the two accepted returns together refund exactly the line
    expect(Number(total)).toBe(Math.round(s.items[0].total * 100));
  });

  it('makes exactly one return from 10 parallel requests with one idempotency key', async () => {
    const s = await sale(2);
    const body = { sale_id: s.id, idempotency_key: 'one-return-key', items: [{ sale_item_id: s.items[0].id, quantity: 1 }] };
    const results = await Promise.all(Array.from({ length: 10 }, () => createReturn(body)));
    expect(results.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    for (const r of results.filter((x) => x.status === 409)) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    const ok = results.filter((r) => r.status === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ok.map((r) => r.body.data.id)).size).toBe(1);
    expect(ok.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    const [{ c }] = await t.db.query("SELECT COUNT(*) AS c FROM sale_returns WHERE idempotency_key = 'one-return-key'", []);
    expect(Number(c)).toBe(1);
    const [{ held }] = await t.db.query('SELECT claimed_quantity AS held FROM sale_item_return_claims WHERE sale_item_id = ?', [s.items[0].id]);
    expect(Number(held)).toBe(1);
    // afterwards: the same body replays, another body is 422
    const replay = await createReturn(body);
    expect(replay.status).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.data.id).toBe(ok[0].body.data.id);
    const other = await createReturn({ ...body, items: [{ sale_item_id: s.items[0].id, quantity: 2 }] });
    expect(other.status).toBe(422);
    expect(other.body.errors.idempotency_key).toBeDefined();
    // a checkout cannot reuse a return's key either
    const checkout = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: 'one-return-key',
        items: [{ id: ids['BEV-001'], qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 2 }],
        total_amount: 1.32,
      });
    expect(checkout.status).toBe(422);
    expect(checkout.body.errors.idempotency_key).toBeDefined();
  });

  it('processes an approved return once when 10 managers press process together', async () => {
    const s = await sale(1);
    const r = await createReturn({ sale_id: s.id, items: [{ sale_item_id: s.items[0].id, quantity: 1 }] });
    await api().post(`/api/v1/returns/${r.body.data.id}/approve`).set(bearer(manager)).expect(200);
    const results = await Promise.all(Array.from({ length: 10 }, () => api().post(`/api/v1/returns/${r.body.data.id}/process`).set(bearer(manager))));
    expect(results.filter((x) => x.status === 200)).toHaveLength(1);
    expect(results.filter((x) => x.status === 409)).toHaveLength(9);
    const [{ c }] = await t.db.query('SELECT COUNT(*) AS c FROM credit_notes WHERE return_id = ?', [r.body.data.id]);
    expect(Number(c)).toBe(1);
    const [{ moved }] = await t.db.query(
      "SELECT COALESCE(SUM(quantity), 0) AS moved FROM stock_movements WHERE reference_type = 'return' AND reference_id = ?",
      [String(r.body.data.id)],
    );
    expect(Number(moved)).toBe(1);
  });

  it('processes returns of one sale in parallel without refunding the cash twice', async () => {
    // 10 x Still Water: 12.90 + 0.26 = 13.16, cash 10.00 + card 3.16; ten returns of one unit each
    const s = await sale(10);
    expect(s.total_amount).toBe(13.16);
    const created = await Promise.all(Array.from({ length: 10 }, () => createReturn({ sale_id: s.id, items: [{ sale_item_id: s.items[0].id, quantity: 1 }] })));
    expect(created.map((r) => r.status)).toEqual(Array(10).fill(200));
    await Promise.all(created.map((r) => api().post(`/api/v1/returns/${r.body.data.id}/approve`).set(bearer(manager)).expect(200)));
    const processed = await Promise.all(created.map((r) => api().post(`/api/v1/returns/${r.body.data.id}/process`).set(bearer(manager))));
    expect(processed.map((r) => r.status)).toEqual(Array(10).fill(200));
    const byMethod = Object.fromEntries(
      (
        await t.db.query(
          'SELECT f.method_code AS code, SUM(f.amount) AS amount FROM return_refunds f JOIN sale_returns r ON r.id = f.return_id WHERE r.sale_id = ? GROUP BY f.method_code',
          [s.id],
        )
      ).map((r: { code: string; amount: number }) => [r.code, Number(r.amount)]),
    );
    expect(byMethod).toEqual({ cash: 1000, card: 316 });
    const detail = (await api().get(`/api/v1/sales/${s.id}`).set(bearer(cashier))).body.data;
    expect(detail.status).toBe('refunded');
    expect(detail.items[0].returned_quantity).toBe(10);
    expect(detail.invoice).toMatchObject({ status: 'credited', credited: 13.16 });
    const numbers = (await t.db.query('SELECT number FROM credit_notes ORDER BY id')).map((r: { number: string }) => r.number);
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  it('never both voids and refunds a sale when a void and a return processing race', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const s = await sale(1);
        // the goods stay with the customer: processing moves no stock, so nothing but the sale serializes the two
        const r = await createReturn({ sale_id: s.id, items: [{ sale_item_id: s.items[0].id, quantity: 1, restock: false }] });
        await api().post(`/api/v1/returns/${r.body.data.id}/approve`).set(bearer(manager)).expect(200);
        return { sale: s.id, ret: r.body.data.id as number };
      }),
    );
    const results = await Promise.all(
      pairs.map(async (p) => {
        const [voided, processed] = await Promise.all([
          api().post(`/api/v1/sales/${p.sale}/void`).set(bearer(manager)).send({}),
          api().post(`/api/v1/returns/${p.ret}/process`).set(bearer(manager)),
        ]);
        return { ...p, voided: voided.status, processed: processed.status };
      }),
    );
    for (const r of results) {
      expect([r.voided, r.processed].sort()).toEqual([200, 409]);
      const [{ status }] = await t.db.query('SELECT status FROM sales WHERE id = ?', [r.sale]);
      expect(status).toBe(r.voided === 200 ? 'voided' : 'refunded');
    }
  });
});
