import request from 'supertest';
import { countQueries } from '../support/query-count';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';

/**
 * POST /sync/upload: what terminals did offline comes back exactly once, each transaction on
 * its own. Downtown store (tax-exclusive): Cola 1.79 + 8.25% = 1.94; at the offline price 1.50,
 * 1.50 + 0.12 = 1.62; eggs 4.29 x 5 = 21.45 + 2% 0.43 = 21.88.
 */
describe('Offline sync: upload', () => {
  let t: TestApp;
  let cashier: string;
  let sessionId: number;
  let ids: Record<string, number>;
  const api = () => request(t.http);
  const upload = (transactions: unknown[], token = cashier) => api().post('/api/v1/sync/upload').set(bearer(token)).send({ store_id: 1, transactions });
  const q = async (sql: string, params: unknown[] = []) => (await t.db.query(sql, params)) as Record<string, unknown>[];
  const n = async (sql: string, params: unknown[] = []) => Number((await q(sql, params))[0].n);
  const iso = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
  const cola = (key: string, at: string, extra: Record<string, unknown> = {}) => ({
    idempotency_key: key,
    type: 'sale',
    offline_created_at: at,
    data: { items: [{ id: ids['BEV-003'], qty: 1, price: 1.79 }], payments: [{ payment_method_code: 'cash', amount: 2 }], total_amount: 1.94, ...extra },
  });

  beforeAll(async () => {
    t = await startTestApp();
    cashier = await login(t, DEMO.cashier, { device_name: 'Till 7' });
    ids = Object.fromEntries((await q('SELECT id, sku FROM items')).map((r) => [r.sku as string, Number(r.id)]));
    const opened = await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
    sessionId = opened.body.data.id;
    await new Promise((r) => setTimeout(r, 1100)); // offline times after the session opened are clearly after it (MySQL keeps seconds)
  });
  afterAll(() => t.close());

  it('answers 50 transactions with 3 junk ones: 47 accepted and 3 rejected, in order; the same upload again: 50 duplicates', async () => {
    const junk = new Set([7, 23, 41]);
    const transactions = Array.from({ length: 50 }, (_, i) => {
      const key = `batch-${i}`;
      if (i === 7) return { idempotency_key: key, type: 'refund', offline_created_at: iso(1000), data: {} };
      if (i === 23) return cola(key, iso(1000), { items: [{ id: 999_999, qty: 1 }] });
      if (i === 41) return { ...cola(key, iso(1000)), offline_created_at: undefined };
      if (i % 10 === 0) return { idempotency_key: key, type: 'customer', data: { name: `Offline Customer ${i}`, phone: `+1 555 01${i}` } };
      if (i === 15 || i === 35)
        return { idempotency_key: key, type: 'cash_movement', offline_created_at: iso(500), data: { type: 'cash_in', amount: 5, reason: 'float top-up' } };
      if (i === 12) return cola(key, iso(3_600_000), { items: [{ id: ids['BEV-003'], qty: 1, price: 1.5 }], total_amount: 1.62 });
      return cola(key, i < 25 ? iso(3_600_000) : iso(800)); // the first half sold before the session opened
    });
    const salesBefore = await n('SELECT COUNT(*) AS n FROM sales');
    const stockBefore = await n('SELECT quantity AS n FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [ids['BEV-003']]);
    const res = await upload(transactions);
    expect(res.status).toBe(200);
    const d = res.body.data;
    expect(d).toMatchObject({ store_id: 1, received: 50, accepted: 47, duplicate: 0, rejected: 3 });
    expect(d.results.map((r: { index: number }) => r.index)).toEqual([...Array(50).keys()]);
    expect(d.results.map((r: { idempotency_key: string }) => r.idempotency_key)).toEqual(transactions.map((x) => x.idempotency_key));
    d.results.forEach((r: { status: string }, i: number) => expect(r.status).toBe(junk.has(i) ? 'rejected' : 'accepted'));
    expect(d.results[7].errors.type).toBeDefined();
    expect(d.results[23]).toMatchObject({ code: 'validation_failed', errors: { 'data.items.0.id': expect.any(Array) } });
    expect(d.results[41].errors.offline_created_at).toBeDefined();

    const sales = transactions.map((x, i) => ({ x, r: d.results[i] })).filter(({ x, r }) => x.type === 'sale' && r.status === 'accepted');
    expect(sales).toHaveLength(40);
    for (const { r } of sales) expect(r).toMatchObject({ id: expect.any(Number), receipt_number: expect.stringMatching(/^DT-\d{6}$/) });
    expect(await n('SELECT COUNT(*) AS n FROM sales')).toBe(salesBefore + 40);
    expect(await n('SELECT quantity AS n FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [ids['BEV-003']])).toBe(stockBefore - 40);

    // created_at is when it happened, synced_at when it arrived; the offline price is kept
    const early = (await api().get(`/api/v1/sales/${d.results[12].id}`).set(bearer(cashier)).expect(200)).body.data;
    expect(Math.abs(Date.parse(early.created_at) - Date.parse(transactions[12].offline_created_at!))).toBeLessThan(1000);
    expect(Date.parse(early.synced_at)).toBeGreaterThan(Date.parse(early.created_at) + 3_000_000);
    expect(early).toMatchObject({ total_amount: 1.62, session_id: null, items: [{ unit_price: 1.5, price_source: 'offline' }] });
    // sold while the session was open: attached to it
    const late = (await api().get(`/api/v1/sales/${d.results[31].id}`).set(bearer(cashier)).expect(200)).body.data;
    expect(late).toMatchObject({ session_id: sessionId, total_amount: 1.94, items: [{ price_source: 'offline' }] });
    expect(d.results[10]).toMatchObject({ status: 'accepted', type: 'customer', record: { name: 'Offline Customer 10' } });
    expect(d.results[15]).toMatchObject({ status: 'accepted', type: 'cash_movement', record: { session_id: sessionId, amount: 5 } });
    const summary = (await api().get(`/api/v1/sessions/${sessionId}/summary`).set(bearer(cashier)).expect(200)).body.data;
    expect(summary.cash_in).toBe(10);

    const again = await upload(transactions);
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({ received: 50, accepted: 0, duplicate: 50, rejected: 0 });
    again.body.data.results.forEach((r: { status: string; original_status: string; id: number | null }, i: number) => {
      expect(r.status).toBe('duplicate');
      expect(r.original_status).toBe(junk.has(i) ? 'rejected' : 'accepted');
      expect(r.id).toBe(d.results[i].id);
    });
    expect(again.body.data.results[23].errors).toEqual(d.results[23].errors);
    expect(await n('SELECT COUNT(*) AS n FROM sales')).toBe(salesBefore + 40);
    expect(await n('SELECT quantity AS n FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [ids['BEV-003']])).toBe(stockBefore - 40);
    expect(await n("SELECT COUNT(*) AS n FROM customers WHERE name LIKE 'Offline Customer %'")).toBe(5);

    const status = (await api().get('/api/v1/sync/status?store_id=1').set(bearer(cashier)).expect(200)).body.data;
    expect(status.device).toMatchObject({ name: 'Till 7', last_upload_at: expect.any(String) });
    expect(status.uploads).toMatchObject({ accepted: 47, duplicate: 50, rejected: 3, pending_rejections: 3 });
    expect(status.rejected.map((r: { idempotency_key: string }) => r.idempotency_key).sort()).toEqual(['batch-23', 'batch-41', 'batch-7']);
    expect(status.rejected.find((r: { idempotency_key: string }) => r.idempotency_key === 'batch-23').errors['data.items.0.id']).toBeDefined();
  });

  it('applies a corrected transaction under a rejected key, and refuses other content under an accepted key', async () => {
    const fixed = await upload([cola('batch-23', iso(1000))]);
    expect(fixed.body.data.results[0]).toMatchObject({ status: 'accepted', receipt_number: expect.any(String) });
    const status = (await api().get('/api/v1/sync/status?store_id=1').set(bearer(cashier)).expect(200)).body.data;
    expect(status.uploads.pending_rejections).toBe(2);

    const before = await n('SELECT COUNT(*) AS n FROM sales');
    const reused = await upload([
      cola('batch-30', iso(2000), { items: [{ id: ids['BEV-003'], qty: 2 }], total_amount: 3.88, payments: [{ payment_method_code: 'cash', amount: 4 }] }),
    ]);
    expect(reused.body.data.results[0]).toMatchObject({ status: 'rejected', code: 'idempotency_key_reused', errors: { idempotency_key: expect.any(Array) } });
    expect(await n('SELECT COUNT(*) AS n FROM sales')).toBe(before);
  });

  it('answers a key repeated within one upload: the same sale is a duplicate, other content under it is refused', async () => {
    const tx = cola('twice-in-one', iso(1000));
    const res = await upload([tx, tx, { idempotency_key: 'twice-in-one', type: 'customer', data: { name: 'Not Me' } }]);
    expect(res.body.data.results.map((r: { status: string }) => r.status)).toEqual(['accepted', 'duplicate', 'rejected']);
    expect(res.body.data.results[1].id).toBe(res.body.data.results[0].id);
    expect(res.body.data.results[2].code).toBe('idempotency_key_reused');
    expect(await n("SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'twice-in-one'")).toBe(1);
    expect(await n("SELECT COUNT(*) AS n FROM customers WHERE name = 'Not Me'")).toBe(0);
    const again = await upload([tx]);
    expect(again.body.data.results[0]).toMatchObject({ status: 'duplicate', original_status: 'accepted', id: res.body.data.results[0].id });
  });

  it('sells on account to a customer created offline, named by its transaction key', async () => {
    const onAccount = (key: string, ref: string) => ({
      ...cola(key, iso(2000)),
      data: { customer_ref: ref, items: [{ id: ids['BEV-003'], qty: 1 }], payments: [{ payment_method_code: 'on_account', amount: 1.94 }], total_amount: 1.94 },
    });
    const early = await upload([onAccount('tab-1', 'new-customer-1')]);
    expect(early.body.data.results[0]).toMatchObject({ status: 'rejected', errors: { 'data.customer_ref': expect.any(Array) } });
    const res = await upload([{ idempotency_key: 'new-customer-1', type: 'customer', data: { name: 'Offline Tab' } }, onAccount('tab-1', 'new-customer-1')]);
    expect(res.body.data.results.map((r: { status: string }) => r.status)).toEqual(['accepted', 'accepted']); // not a duplicate of the early rejection
    const sale = (await api().get(`/api/v1/sales/${res.body.data.results[1].id}`).set(bearer(cashier)).expect(200)).body.data;
    expect(sale).toMatchObject({ customer_id: res.body.data.results[0].id, balance_due: 1.94, invoice: { status: 'issued', balance: 1.94 } });
  });

  it('takes stock below zero for an offline sale past the stock, with a ledger row', async () => {
    const admin = await login(t, DEMO.admin);
    await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(admin))
      .send({ type: 'count', warehouse_id: 1, items: [{ item_id: ids['GRO-003'], quantity: 2 }] })
      .expect(201);
    const res = await upload([
      {
        idempotency_key: 'past-the-stock',
        type: 'sale',
        offline_created_at: iso(60_000),
        data: { items: [{ id: ids['GRO-003'], qty: 5 }], payments: [{ payment_method_code: 'card', amount: 21.88 }], total_amount: 21.88 },
      },
    ]);
    expect(res.body.data.results[0]).toMatchObject({ status: 'accepted' });
    const saleId = res.body.data.results[0].id;
    expect(await n('SELECT quantity AS n FROM stock_levels WHERE item_id = ? AND warehouse_id = 1', [ids['GRO-003']])).toBe(-3);
    const [row] = await q("SELECT quantity, balance_after FROM stock_movements WHERE reference_type = 'sale' AND reference_id = ?", [String(saleId)]);
    expect({ quantity: Number(row.quantity), balance: Number(row.balance_after) }).toEqual({ quantity: -5, balance: -3 });
  });

  it('makes one sale when the same offline sale is uploaded by two requests at once', async () => {
    const tx = cola('concurrent-sale', iso(5000));
    const [a, b, c] = await Promise.all([upload([tx]), upload([tx]), upload([tx])]);
    const results = [a, b, c].map((r) => r.body.data.results[0]);
    expect(results.filter((r) => r.status === 'accepted')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'duplicate')).toHaveLength(2);
    expect(new Set(results.map((r) => r.id)).size).toBe(1);
    expect(await n("SELECT COUNT(*) AS n FROM sales WHERE idempotency_key = 'concurrent-sale'")).toBe(1);
    const customer = { idempotency_key: 'concurrent-customer', type: 'customer', data: { name: 'Twice Sent' } };
    const both = await Promise.all([upload([customer]), upload([customer])]);
    expect(both.map((r) => r.body.data.results[0].status).sort()).toEqual(['accepted', 'duplicate']);
    expect(await n("SELECT COUNT(*) AS n FROM customers WHERE name = 'Twice Sent'")).toBe(1);
  });

  it('refuses offline times in the future or too old, cash movements without a session, and discounts beyond the limit', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const res = await upload([
      cola('too-late', future),
      cola('too-old', iso(31 * 86_400_000)),
      { idempotency_key: 'no-session', type: 'cash_movement', offline_created_at: iso(86_400_000), data: { type: 'cash_out', amount: 1, reason: 'x' } },
      cola('bad-total', iso(1000), { total_amount: 1.9 }),
      { idempotency_key: 'bad-amount', type: 'cash_movement', offline_created_at: iso(100), data: { type: 'cash_in', amount: 1.005, reason: 'x' } },
      'not an object',
      cola('week-date', '2026-W48-5'),
    ]);
    const r = res.body.data.results;
    expect(r.map((x: { status: string }) => x.status)).toEqual(Array(7).fill('rejected'));
    // a form Date cannot read is the terminal's to correct (validation_failed), not a server error to send again
    expect(r[6]).toMatchObject({ code: 'validation_failed', errors: { offline_created_at: expect.any(Array) } });
    expect(r[0]).toMatchObject({ code: 'offline_time_refused', errors: { offline_created_at: [expect.stringMatching(/future/)] } });
    expect(r[1]).toMatchObject({ code: 'offline_time_refused', errors: { offline_created_at: [expect.stringMatching(/30 days/)] } });
    expect(r[2].errors['data.session_id']).toBeDefined();
    expect(r[3]).toMatchObject({ code: 'total_mismatch', errors: { 'data.total_amount': expect.any(Array) } });
    expect(r[4].errors['data.amount']).toBeDefined();
    expect(r[5]).toMatchObject({ idempotency_key: null, errors: { transaction: expect.any(Array) } });
    // a discount beyond the limit is no reason to lose an offline sale: it is kept and flagged for review
    const line = { id: ids['BEV-003'], qty: 1, discount_type: 'percent', discount_value: 50 };
    const priced = await api()
      .post('/api/v1/pricing/cart')
      .set(bearer(cashier))
      .send({ store_id: 1, items: [line] });
    const total = priced.body.data.total;
    const big = await upload([
      cola('big-discount', iso(1000), { items: [line], total_amount: total, payments: [{ payment_method_code: 'cash', amount: total }] }),
    ]);
    expect(big.body.data.results[0]).toMatchObject({ status: 'accepted', review: { reason: 'offline_discount_beyond_limits' } });
  });

  it('validates the upload itself: store, transactions, at most 500 (422), and needs pos.access', async () => {
    expectErrorEnvelope(
      await api()
        .post('/api/v1/sync/upload')
        .set(bearer(cashier))
        .send({ transactions: [{}] }),
      422,
    );
    expectErrorEnvelope(await api().post('/api/v1/sync/upload').set(bearer(cashier)).send({ store_id: 1, transactions: [] }), 422);
    expectErrorEnvelope(await api().post('/api/v1/sync/upload').set(bearer(cashier)).send({ store_id: 1, transactions: 'x' }), 422);
    // uploads have their own body limit (10mb): 2 MB of transactions is read, not refused with 413
    const big = await upload(Array.from({ length: 200 }, (_, i) => ({ idempotency_key: `big-${i}`, type: 'refund', data: { pad: 'x'.repeat(10_000) } })));
    expect(big.status).toBe(200);
    expect(big.body.data.rejected).toBe(200);
    const tooMany = await upload(Array.from({ length: 501 }, () => ({})));
    expectErrorEnvelope(tooMany, 422);
    expect(tooMany.body.errors.transactions[0]).toMatch(/500/);
    expectErrorEnvelope(
      await api()
        .post('/api/v1/sync/upload')
        .set(bearer(cashier))
        .send({ store_id: 2, transactions: [{}] }),
      403,
    );
    expectErrorEnvelope(
      await api()
        .post('/api/v1/sync/upload')
        .send({ store_id: 1, transactions: [{}] }),
      401,
    );
  });

  it('keeps a new rejection with one INSERT (no UPDATE of a key not there yet: a gap lock on MySQL), and a changed one under its key', async () => {
    const counter = countQueries(t.db);
    let writes: string[];
    try {
      const res = await upload([cola('rej-new-1', iso(1000), { items: [{ id: 999_998, qty: 1 }] })]);
      expect(res.body.data.results[0]).toMatchObject({ status: 'rejected', errors: { 'data.items.0.id': expect.any(Array) } });
      writes = counter.statements
        .filter((s) => /sync_transactions/.test(s) && /^\s*(INSERT|UPDATE|DELETE)\b/i.test(s))
        .map((s) => s.trim().split(/\s+/)[0].toUpperCase());
    } finally {
      counter.stop();
    }
    expect(writes).toEqual(['INSERT']);
    const changed = await upload([{ ...cola('rej-new-1', iso(1000)), offline_created_at: undefined }]);
    expect(changed.body.data.results[0]).toMatchObject({ status: 'rejected', errors: { offline_created_at: expect.any(Array) } });
    const kept = await q("SELECT status, errors FROM sync_transactions WHERE idempotency_key = 'rej-new-1'");
    expect(kept).toHaveLength(1);
    expect(kept[0].status).toBe('rejected');
    expect(String(kept[0].errors)).toContain('offline_created_at');
  });
});
