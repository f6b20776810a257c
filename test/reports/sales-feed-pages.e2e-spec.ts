import request from 'supertest';
import { SaleFactsReader } from '@pos/sales';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The sales feeds at scale read meta.total from per-day sale counts kept with the sales, and start
 * a page on the day it falls in. Whatever the page size, the pages put together are the whole feed
 * newest first, and every total equals what counting the sales gives, through voids and filters.
 */
describe('Sales feed pages and totals', () => {
  let t: TestApp;
  let feed: string;
  let cashier: string;
  let manager: string;
  let staff: string;
  let ids: Record<string, number>;
  const api = () => request(t.http);
  let n = 0;
  const sell = async (token: string, storeId: number, sku: string) => {
    const total = storeId === 1 ? 1.32 : 2.49;
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(token))
      .send({
        store_id: storeId,
        idempotency_key: `feed-${++n}`,
        items: [{ id: ids[sku], qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 5 }],
        total_amount: total,
      });
    if (res.status !== 201) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  const get = async (path: string, query: Record<string, string | number> = {}) => {
    const res = await api().get(`/api/v1/${path}`).set(bearer(feed)).query(query);
    expect(res.status).toBe(200);
    return res.body as { data: { id: number; created_at: string }[]; meta: { total: number; last_page: number } };
  };
  /** The feed newest first, as counting and sorting the sales table gives it. */
  const expected = async (where = '1 = 1', params: unknown[] = []) =>
    ((await t.db.query(`SELECT id FROM sales WHERE ${where} ORDER BY created_at DESC, id DESC`, params)) as { id: number }[]).map((r) => Number(r.id));

  beforeAll(async () => {
    t = await startTestApp();
    feed = (await integrationToken(t, ['sales.view'])).token;
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    staff = await login(t, DEMO.admin);
    ids = Object.fromEntries((await t.db.query('SELECT id, sku FROM items')).map((r: { id: number; sku: string }) => [r.sku, Number(r.id)]));
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 0 }).expect(200);
    await api().post('/api/v1/sessions/open').set(bearer(manager)).send({ store_id: 2, opening_balance: 0 }).expect(200);
    const made: number[] = [];
    for (let i = 0; i < 9; i++) made.push(await sell(cashier, 1, 'BEV-001'));
    for (let i = 0; i < 4; i++) made.push(await sell(manager, 2, 'SNK-001'));
    for (const id of [made[2], made[10]]) await api().post(`/api/v1/sales/${id}/void`).set(bearer(manager)).send({}).expect(200);
  });
  afterAll(() => t.close());

  it('keeps the day counts equal to the sales through checkouts and voids', async () => {
    const day = t.isMysql ? "DATEDIFF(created_at, '1970-01-01')" : 'CAST(julianday(created_at) - 2440587.5 AS INTEGER)';
    const counted = await t.db.query(
      `SELECT ${day} AS day, store_id, COALESCE(warehouse_id, 0) AS wh, status, COUNT(*) AS n FROM sales GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    );
    const kept = await t.db.query('SELECT day, store_id, warehouse_id AS wh, status, n FROM sale_day_counts WHERE n <> 0 ORDER BY 1, 2, 3, 4');
    const norm = (rows: Record<string, unknown>[]) => rows.map((r) => [Number(r.day), Number(r.store_id), Number(r.wh), r.status, Number(r.n)]);
    expect(norm(kept)).toEqual(norm(counted));
    expect(norm(kept).find((r) => r[3] === 'voided')).toBeDefined();
  });

  it('pages over several days put together are the whole feed, newest first, with exact totals', async () => {
    // Spread the sales over three days (straight in the table), then recount as a bulk loader would.
    const day = 86_400_000;
    const at = (ms: number) => (t.isMysql ? new Date(ms) : new Date(ms).toISOString().replace('T', ' ').replace('Z', ''));
    const all = await expected();
    for (const [i, id] of all.entries()) {
      if (i % 3 === 1) await t.db.query('UPDATE sales SET created_at = ? WHERE id = ?', [at(Date.now() - day - i * 1000), id]);
      if (i % 3 === 2) await t.db.query('UPDATE sales SET created_at = ? WHERE id = ?', [at(Date.now() - 3 * day - i * 1000), id]);
    }
    await t.app.get(SaleFactsReader).rebuildFeedCounts();
    const everything = await expected();
    for (const path of ['integration/sales', 'integrations/data/sales']) {
      for (const perPage of [1, 4, 5, 13, 200]) {
        const ids: number[] = [];
        const first = await get(path, { per_page: perPage });
        expect(first.meta.total).toBe(13);
        for (let p = 1; p <= first.meta.last_page; p++) ids.push(...(await get(path, { per_page: perPage, page: p })).data.map((s) => s.id));
        expect([path, perPage, ids]).toEqual([path, perPage, everything]);
        expect((await get(path, { per_page: perPage, page: first.meta.last_page + 1 })).data).toEqual([]);
      }
    }
    const filters: [Record<string, string | number>, string, unknown[]][] = [
      [{ status: 'completed' }, "status = 'completed'", []],
      [{ status: 'voided' }, "status = 'voided'", []],
      [{ store_id: 2 }, 'store_id = 2', []],
      [{ warehouse_id: 1 }, 'warehouse_id = 1', []],
      [{ store_id: 1, status: 'completed' }, "store_id = 1 AND status = 'completed'", []],
      [{ date_from: new Date(Date.now() - day).toISOString().slice(0, 10) }, 'created_at >= ?', [at(Math.floor(Date.now() / day - 1) * day)]],
      [{ to: new Date(Date.now() - 2 * day).toISOString().slice(0, 10) }, 'created_at < ?', [at(Math.floor(Date.now() / day - 1) * day)]],
    ];
    for (const [query, where, params] of filters) {
      const want = await expected(where, params);
      const got: number[] = [];
      const first = await get('integration/sales', { ...query, per_page: 2 });
      for (let p = 1; p <= first.meta.last_page; p++) got.push(...(await get('integration/sales', { ...query, per_page: 2, page: p })).data.map((s) => s.id));
      expect([query, first.meta.total, got]).toEqual([query, want.length, want]);
    }
    // A filter the counts cannot answer (a cashier) counts the rows: the same order.
    const cashierId = Number((await t.db.query("SELECT id FROM users WHERE email = 'cashier@example.com'"))[0].id);
    const mine = await api().get('/api/v1/sales').set(bearer(staff)).query({ user_id: cashierId, per_page: 100 });
    expect(mine.body.data.map((s: { id: number }) => s.id)).toEqual(await expected('user_id = ?', [cashierId]));
  });
});
