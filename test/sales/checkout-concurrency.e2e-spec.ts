import request from 'supertest';
import { AuditLog, IdempotentRequests } from '@pos/platform';
import { bearer, countStock, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/** Never oversell, never double-sell: run on SQLite (serialized) and on MariaDB (row locks). */
describe('Checkout under concurrency', () => {
  let t: TestApp;
  let cashier: string;
  let itemId: number;
  const api = () => request(t.http);

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier);
    const admin = await login(t, DEMO.admin);
    itemId = Number((await t.db.query("SELECT id FROM items WHERE sku = 'GRO-003'"))[0].id); // eggs 4.29, food tax 2%
    // leave exactly 5 units in the Downtown warehouse
    await countStock(t, admin, itemId, 5);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
  });
  afterAll(() => t.close());

  const body = (key: string) => ({
    store_id: 1,
    idempotency_key: key,
    items: [{ id: itemId, qty: 1 }],
    payments: [{ payment_method_code: 'card', amount: 4.38 }],
    total_amount: 4.38,
  });

  it('sells exactly the last 5 units to 20 parallel checkouts', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api()
          .post('/api/v1/pos/checkout')
          .set(bearer(cashier))
          .send(body(`last-units-${i}`)),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(5);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.code).toBe('insufficient_stock');
    const [{ q }] = await t.db.query('SELECT quantity AS q FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [itemId]);
    expect(Number(q)).toBe(0);
    const [{ n }] = await t.db.query(
      "SELECT COUNT(*) AS n FROM sale_items si JOIN sales s ON s.id = si.sale_id WHERE si.item_id = ? AND s.status = 'completed'",
      [itemId],
    );
    expect(Number(n)).toBe(5);
    const [{ sum }] = await t.db.query(
      "SELECT COALESCE(SUM(quantity), 0) AS sum FROM stock_movements WHERE item_id = ? AND warehouse_id = 1 AND type = 'sale'",
      [itemId],
    );
    expect(Number(sum)).toBe(-5);
    // receipt numbers stay unique and gapless per store
    const receipts = (await t.db.query('SELECT receipt_number FROM sales WHERE store_id = 1 ORDER BY id')).map(
      (r: { receipt_number: string }) => r.receipt_number,
    );
    expect(new Set(receipts).size).toBe(receipts.length);
  });

  it('makes exactly one sale from 10 parallel requests with one idempotency key', async () => {
    const admin = await login(t, DEMO.admin);
    await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(admin))
      .send({ type: 'receive', warehouse_id: 1, items: [{ item_id: itemId, quantity: 10 }] })
      .expect(201);
    const results = await Promise.all(Array.from({ length: 10 }, () => api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body('one-key'))));
    // the duplicates wait for the first sale's commit (on the key's unique index) and replay it: no 409
    expect(results.map((r) => r.status)).toEqual(results.map(() => 201));
    const created = results;
    expect(new Set(created.map((r) => r.body.data.id)).size).toBe(1);
    expect(created.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'one-key'");
    expect(Number(n)).toBe(1);
    const [{ m }] = await t.db.query("SELECT COUNT(*) AS m FROM stock_movements WHERE type = 'sale' AND reference_id = ?", [String(created[0].body.data.id)]);
    expect(Number(m)).toBe(1);
    // afterwards every retry is a replay with the same body
    const again = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body('one-key'));
    expect(again.status).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(created[0].body);
  });

  it('refuses the same key with another body (422) and frees a key whose request failed', async () => {
    const other = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ ...body('one-key'), reference: 'changed' });
    expectErrorEnvelope(other, 422);
    expect(other.body.errors.idempotency_key).toHaveLength(1);
    // a failed attempt (wrong total) leaves the key free for the corrected request
    expectErrorEnvelope(
      await api()
        .post('/api/v1/pos/checkout')
        .set(bearer(cashier))
        .send({ ...body('fix-me'), total_amount: 4.37 }),
      400,
    );
    expect((await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body('fix-me'))).status).toBe(201);
  });

  it('answers 422 to another cashier reusing a key, and never lends them the first sale', async () => {
    const manager = await login(t, DEMO.manager);
    await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 1, opening_balance: 0 });
    const reused = await api().post('/api/v1/pos/checkout').set(bearer(manager)).send(body('one-key'));
    expectErrorEnvelope(reused, 422);
    expect(reused.body.errors.idempotency_key).toHaveLength(1);
    expect(reused.body.data).toBeUndefined();
  });

  it('commits no claim before the sale: a sale that dies leaves its key free for the retry at once', async () => {
    const idempotency = t.app.get(IdempotentRequests);
    let release!: () => void;
    let started!: () => void;
    const running = new Promise<void>((r) => (started = r));
    const gate = new Promise<void>((r) => (release = r));
    const request = { scope: 'checkout', key: 'dies-mid-sale', fingerprint: 'f', userId: 3 };
    const dying = idempotency.run(request, 201, async () => {
      started();
      await gate;
      throw new Error('the process died here');
    });
    await running;
    if (t.isMysql) {
      // another connection sees no claim while the work runs (before: an in-flight row, committed on its own)
      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM idempotency_keys WHERE idem_key = 'dies-mid-sale'");
      expect(Number(n)).toBe(0);
    }
    release();
    await expect(dying).rejects.toThrow('the process died here');
    const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM idempotency_keys WHERE idem_key = 'dies-mid-sale'");
    expect(Number(n)).toBe(0);
    await expect(idempotency.run(request, 201, () => Promise.resolve({ ok: true }))).resolves.toEqual({ replayed: false, status: 201, body: { ok: true } });
  });

  /** The retry of a completed sale: its stored answer again, and no sale, line or stock movement written. */
  async function expectReplayWritingNothing(key: string, firstBody: unknown): Promise<void> {
    const count = async () =>
      (await t.db.query(
        'SELECT (SELECT COUNT(*) FROM sales) AS sales, (SELECT COUNT(*) FROM sale_items) AS sale_lines, (SELECT COUNT(*) FROM stock_movements) AS moves',
      )) as { sales: number; sale_lines: number; moves: number }[];
    const [before] = await count();
    const retry = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body(key));
    expect(retry.status).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.body).toEqual(firstBody);
    const [after] = await count();
    expect([after.sales, after.sale_lines, after.moves].map(Number)).toEqual([before.sales, before.sale_lines, before.moves].map(Number));
  }

  it('replays a completed sale after its price changed (the retry would now be a total mismatch)', async () => {
    const admin = await login(t, DEMO.admin);
    await countStock(t, admin, itemId, 5);
    const first = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body('price-later'));
    expect(first.status).toBe(201);
    await api().put(`/api/v1/items/${itemId}`).set(bearer(admin)).send({ base_price: 9.99 }).expect(200);
    try {
      // a new sale at the old total is refused now
      expect((await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body('price-later-new'))).status).toBe(400);
      await expectReplayWritingNothing('price-later', first.body);
    } finally {
      await api().put(`/api/v1/items/${itemId}`).set(bearer(admin)).send({ base_price: 4.29 }).expect(200);
    }
  });

  it('replays a completed sale even when the sale would now be refused (till closed, stock sold out)', async () => {
    const first = await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body('closed-later'));
    expect(first.status).toBe(201);
    const admin = await login(t, DEMO.admin);
    await countStock(t, admin, itemId, 0);
    const sessionId = first.body.data.session_id as number;
    expect(sessionId).toEqual(expect.any(Number));
    await api().post(`/api/v1/sessions/${sessionId}/close`).set(bearer(cashier)).send({ closing_balance: 0 }).expect(200);
    // a new sale is refused now
    expect((await api().post('/api/v1/pos/checkout').set(bearer(cashier)).send(body('after-close'))).status).toBe(409);
    // the retry of the one that succeeded is still its replay
    await expectReplayWritingNothing('closed-later', first.body);
    // and the same key with another body is still 422, not the refusal
    const other = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({ ...body('closed-later'), reference: 'changed' });
    expectErrorEnvelope(other, 422);
    expect(other.body.errors.idempotency_key).toHaveLength(1);
  });

  it('keeps a work without a unique index of its own exactly once: the duplicate that finishes second is rolled back and replays', async () => {
    const idempotency = t.app.get(IdempotentRequests);
    const audit = t.app.get(AuditLog);
    const request = { scope: 'probe', key: 'two-at-once', fingerprint: 'p', userId: 3 };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let runs = 0;
    const work = (wait: boolean) => async () => {
      runs += 1;
      await audit.record({ action: 'test.idempotency_probe', target: { type: 'test', id: runs } });
      if (wait) await gate;
      return { run: runs };
    };
    const slow = idempotency.run(request, 201, work(true));
    await new Promise((r) => setTimeout(r, 50));
    const fast = idempotency.run(request, 201, work(false));
    await new Promise((r) => setTimeout(r, 50));
    release();
    const outcomes = await Promise.all([slow, fast]);
    expect(outcomes.filter((o) => o.replayed)).toHaveLength(1);
    expect(outcomes[0].body).toEqual(outcomes[1].body);
    const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM audit_log WHERE action = 'test.idempotency_probe'");
    expect(Number(n)).toBe(1);
    const [{ k }] = await t.db.query("SELECT COUNT(*) AS k FROM idempotency_keys WHERE idem_key = 'two-at-once'");
    expect(Number(k)).toBe(1);
  });
});
