import request from 'supertest';
import { utcDayOf, utcMonthOf } from '@pos/kernel';
import { utcDate } from '@pos/platform';
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

  /** sale_counts as counting the sales by UTC day and by UTC month gives them. */
  const counted = async () => {
    const sales = (await t.db.query('SELECT created_at, store_id, warehouse_id, status FROM sales')) as Record<string, unknown>[];
    const want = new Map<string, number>();
    for (const s of sales) {
      const day = utcDayOf(utcDate.from(s.created_at as Date | string) as Date);
      for (const [grain, d] of [
        ['d', day],
        ['m', utcMonthOf(day)],
      ])
        want.set(
          [grain, d, Number(s.store_id), Number(s.warehouse_id ?? 0), s.status].join('|'),
          (want.get([grain, d, Number(s.store_id), Number(s.warehouse_id ?? 0), s.status].join('|')) ?? 0) + 1,
        );
    }
    return [...want].map(([k, n]) => `${k}|${n}`).sort();
  };
  const kept = async () =>
    ((await t.db.query('SELECT grain, day, store_id, warehouse_id, status, n FROM sale_counts WHERE n <> 0')) as Record<string, unknown>[])
      .map((r) => [r.grain, Number(r.day), Number(r.store_id), Number(r.warehouse_id), r.status, Number(r.n)].join('|'))
      .sort();

  it('keeps the day and month counts equal to the sales through checkouts and voids', async () => {
    expect(await kept()).toEqual(await counted());
    expect((await kept()).find((r) => r.startsWith('m|') && r.includes('|voided|'))).toBeDefined();
  });

  it('pages over several days and months put together are the whole feed, newest first, with exact totals', async () => {
    // Spread the sales over five days in up to four UTC months (straight in the table), then recount as a bulk loader would.
    const day = 86_400_000;
    const at = (ms: number) => (t.isMysql ? new Date(ms) : new Date(ms).toISOString().replace('T', ' ').replace('Z', ''));
    const all = await expected();
    const back = [0, 1, 3, 40, 75];
    for (const [i, id] of all.entries())
      if (i % 5) await t.db.query('UPDATE sales SET created_at = ? WHERE id = ?', [at(Date.now() - back[i % 5] * day - i * 1000), id]);
    await t.app.get(SaleFactsReader).rebuildFeedCounts();
    expect(await kept()).toEqual(await counted());
    expect(new Set((await kept()).filter((r) => r.startsWith('m|')).map((r) => r.split('|')[1])).size).toBeGreaterThanOrEqual(3);
    const today = utcDayOf(new Date());
    const iso = (k: number) => new Date((today + k) * day).toISOString().slice(0, 10);
    const dayAt = (k: number) => at((today + k) * day);
    const monthMs = (k: number) => Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth() + k, 1);
    const monthIso = (k: number) => new Date(monthMs(k)).toISOString().slice(0, 10);
    const lastOfMonthIso = (k: number) => new Date(monthMs(k + 1) - day).toISOString().slice(0, 10);
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
      [{ date_from: iso(-1) }, 'created_at >= ?', [dayAt(-1)]],
      [{ to: iso(-2) }, 'created_at < ?', [dayAt(-1)]],
      // Date ranges cutting months, holding whole months, inside one month, and empty.
      [{ date_from: iso(-60), date_to: iso(-2) }, 'created_at >= ? AND created_at < ?', [dayAt(-60), dayAt(-1)]],
      [{ date_from: iso(-100) }, 'created_at >= ?', [dayAt(-100)]],
      [{ date_from: monthIso(-2), date_to: iso(0) }, 'created_at >= ?', [at(monthMs(-2))]],
      [{ date_from: monthIso(-3), to: lastOfMonthIso(-1) }, 'created_at >= ? AND created_at < ?', [at(monthMs(-3)), at(monthMs(0))]],
      [
        { date_from: iso(-41), date_to: iso(-39), status: 'completed' },
        "created_at >= ? AND created_at < ? AND status = 'completed'",
        [dayAt(-41), dayAt(-38)],
      ],
      [{ date_from: iso(-30), date_to: iso(-20) }, 'created_at >= ? AND created_at < ?', [dayAt(-30), dayAt(-19)]],
    ];
    for (const [query, where, params] of filters) {
      const want = await expected(where, params);
      const got: number[] = [];
      const first = await get('integration/sales', { ...query, per_page: 2 });
      for (let p = 1; p <= first.meta.last_page; p++) got.push(...(await get('integration/sales', { ...query, per_page: 2, page: p })).data.map((s) => s.id));
      expect([query, first.meta.total, got]).toEqual([query, want.length, want]);
    }
    // Ranges at the edges of the calendar, reversed, or in the future; a page far past the end; times within a day (the row-counting path).
    const edges: [Record<string, string | number>, string, unknown[]][] = [
      [{ date_from: '1000-01-01', date_to: '9999-12-31' }, '1 = 1', []],
      [{ date_from: iso(0), date_to: iso(-5) }, '1 = 0', []],
      [{ date_from: iso(400), date_to: iso(500) }, '1 = 0', []],
      [{ to: '1969-12-31' }, '1 = 0', []],
      [
        { date_from: `${iso(-41)}T12:00:00Z`, date_to: `${iso(-1)}T06:00:00Z` },
        'created_at >= ? AND created_at < ?',
        [at((today - 41) * day + day / 2), at((today - 1) * day + day / 4)],
      ],
    ];
    for (const [query, where, params] of edges) {
      const res = await api()
        .get('/api/v1/integration/sales')
        .set(bearer(feed))
        .query({ ...query, per_page: 200 });
      expect([query, res.status]).toEqual([query, 200]);
      expect([query, res.body.meta.total, res.body.data.map((r: { id: number }) => r.id)]).toEqual([
        query,
        (await expected(where, params)).length,
        await expected(where, params),
      ]);
    }
    const early = await api().get('/api/v1/integration/sales').set(bearer(feed)).query({ date_from: '0001-01-01' });
    expect([early.status, Object.keys(early.body.errors ?? {})]).toEqual([422, ['date_from']]);
    // ISO 8601's basic, week and ordinal forms were taken and then ignored as filters (every row)
    for (const [name, value] of [
      ['from', '20261127'],
      ['date_from', '2026-W48'],
      ['date_to', '2026-331'],
    ]) {
      const odd = await api()
        .get('/api/v1/integration/sales')
        .set(bearer(feed))
        .query({ [name]: value });
      expect([value, odd.status, Object.keys(odd.body.errors ?? {})]).toEqual([value, 422, [name]]);
    }
    const far = await api().get('/api/v1/integration/sales').set(bearer(feed)).query({ page: 1_000_000, per_page: 200 });
    expect([far.status, far.body.data, far.body.meta.total]).toEqual([200, [], 13]);
    // A filter the counts cannot answer (a cashier) counts the rows: the same order.
    const cashierId = Number((await t.db.query("SELECT id FROM users WHERE email = 'cashier@example.com'"))[0].id);
    const mine = await api().get('/api/v1/sales').set(bearer(staff)).query({ user_id: cashierId, per_page: 100 });
    expect(mine.body.data.map((s: { id: number }) => s.id)).toEqual(await expected('user_id = ?', [cashierId]));
  });
});
