import { ReplicaBroadcast } from '@pos/platform';
import request from 'supertest';
import { COUNTED_APP_ENV, countQueries } from '../support/query-count';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * GET /items keeps each filter's total per process (ItemListTotals): the next pages of a list or
 * a search are not counted again, and every item write through the API (create, rename, active
 * flag, category, delete) forgets the totals once it commits, so the very next page is counted
 * and exact. The TTL is long here (COUNTED_APP_ENV), so only the forgetting can make these pass.
 * On both databases.
 */
describe('Totals of item lists, held between pages', () => {
  let t: TestApp;
  let manager: string;
  const api = () => request(t.http);

  /** A page's total and how many of its statements counted. */
  const page = async (query: Record<string, unknown>) => {
    const counter = countQueries(t.db);
    const res = await api().get('/api/v1/items').query(query).set(bearer(manager));
    counter.stop();
    expect(res.status).toBe(200);
    const counts = counter.statements.filter((s) => /COUNT\(/i.test(s)).length;
    return { total: res.body.meta.total as number, shown: (res.body.data as unknown[]).length, statements: counter.statements.length, counts };
  };
  /** What the database itself counts. */
  const live = async (where = '1 = 1', params: unknown[] = []) =>
    Number(((await t.db.query(`SELECT COUNT(*) AS n FROM items WHERE deleted_at IS NULL AND ${where}`, params)) as { n: number | string }[])[0].n);

  const create = async (body: Record<string, unknown>) => {
    const res = await api()
      .post('/api/v1/items')
      .set(bearer(manager))
      .send({ base_price: 1, ...body });
    expect(res.status).toBe(201);
    return res.body.data.id as number;
  };
  const update = async (id: number, body: Record<string, unknown>) => {
    const res = await api().patch(`/api/v1/items/${id}`).set(bearer(manager)).send(body);
    expect(res.status).toBe(200);
  };

  beforeAll(async () => {
    t = await startTestApp(COUNTED_APP_ENV);
    manager = await login(t, DEMO.manager);
    for (let k = 1; k <= 6; k++) await create({ sku: `TOTQ-${k}`, name: `Totquill ${k}`, is_active: k !== 6 });
  });
  afterAll(() => t.close());

  it("counts a plain list's first page only; its next pages carry the held total", async () => {
    const all = await live();
    expect(await page({ per_page: 3 })).toEqual({ total: all, shown: 3, statements: 2, counts: 1 });
    expect(await page({ per_page: 3, page: 2 })).toEqual({ total: all, shown: 3, statements: 1, counts: 0 });
    // Another filter is another total
    const active = await live('is_active = ?', [1]);
    expect(await page({ per_page: 3, is_active: true })).toEqual({ total: active, shown: 3, statements: 2, counts: 1 });
    expect(await page({ per_page: 3, is_active: true, page: 2 })).toEqual({ total: active, shown: 3, statements: 1, counts: 0 });
  });

  it("counts a search's full first page only; its next pages carry the held total", async () => {
    expect(await page({ q: 'totquill', per_page: 2 })).toEqual({ total: 6, shown: 2, statements: 1, counts: 1 });
    const next = await page({ q: 'totquill', per_page: 2, page: 2 });
    // The page and its details: no count (a later page reads its details on its own)
    expect(next).toEqual({ total: 6, shown: 2, statements: 2, counts: 0 });
    expect(await page({ q: 'totquill', per_page: 2, page: 3 })).toEqual({ total: 6, shown: 2, statements: 2, counts: 0 });
    expect(await page({ q: 'totquill', is_active: false, per_page: 2 })).toEqual({ total: 1, shown: 1, statements: 1, counts: 1 });
  });

  it('counts again after every kind of item write, and the totals are exact', async () => {
    const held = async (query: Record<string, unknown>) => (await page(query)).counts === 0;
    const search = { q: 'totquill', per_page: 2 };
    await page(search);
    expect(await held(search)).toBe(true);
    // Created
    const id = await create({ sku: 'TOTQ-NEW', name: 'Totquill newest' });
    expect(await page(search)).toEqual(expect.objectContaining({ total: 7, counts: 1 }));
    expect(await held(search)).toBe(true);
    // Renamed out of the term, and back
    await update(id, { name: 'Renamed elsewhere' });
    expect(await page(search)).toEqual(expect.objectContaining({ total: 6, counts: 1 }));
    await update(id, { name: 'Totquill again' });
    expect(await page(search)).toEqual(expect.objectContaining({ total: 7, counts: 1 }));
    // Its active flag, under an is_active filter
    const inactive = { ...search, is_active: false };
    expect((await page(inactive)).total).toBe(1);
    expect(await held(inactive)).toBe(true);
    await update(id, { is_active: false });
    expect(await page(inactive)).toEqual(expect.objectContaining({ total: 2, counts: 1 }));
    // Its category, under a category filter
    const category = (
      await api()
        .post('/api/v1/categories')
        .set(bearer(await login(t, DEMO.admin)))
        .send({ name: 'Totquill shelf' })
    ).body.data.id as number;
    const shelved = { per_page: 1, category_id: category };
    expect((await page(shelved)).total).toBe(0);
    expect(await held(shelved)).toBe(true);
    await update(id, { category_id: category });
    expect(await page(shelved)).toEqual(expect.objectContaining({ total: 1, counts: 1 }));
    // Deleted: gone from the plain list's total too
    const plain = { per_page: 1 };
    const before = (await page(plain)).total;
    expect(await held(plain)).toBe(true);
    expect((await api().delete(`/api/v1/items/${id}`).set(bearer(manager))).status).toBe(200);
    expect(await page(plain)).toEqual(expect.objectContaining({ total: before - 1, counts: 1 }));
    expect((await page(search)).total).toBe(6);
    expect((await page(plain)).total).toBe(await live());
  });

  // Redis hands a message back to its publisher too. The stop-44 CI run failed here when the echo
  // of a create arrived after the first page had counted: the totals were forgotten again and the
  // next page counted. The process now knows its own echo and skips it; this publishes one.
  (process.env.TEST_REDIS_URL ? it : it.skip)("keeps the totals when Redis echoes this process's own write back (TEST_REDIS_URL run)", async () => {
    const broadcast = t.app.get(ReplicaBroadcast);
    const heard: boolean[] = [];
    await broadcast.subscribe('catalog.items-changed', (_message, own) => heard.push(own));
    const search = { q: 'totquill', per_page: 2 };
    await page(search);
    expect((await page(search)).counts).toBe(0);
    broadcast.publish('catalog.items-changed', { ids: [] });
    for (let i = 0; i < 200 && heard.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(heard).toEqual([true]);
    expect((await page(search)).counts).toBe(0);
  });

  it('forgets the totals on any item write, a price edit too', async () => {
    // Any write forgets every total (a price edit too): simple, and writes are rare next to reads.
    const search = { q: 'totquill', per_page: 2 };
    await page(search);
    expect((await page(search)).counts).toBe(0);
    const [first] = ((await t.db.query("SELECT id FROM items WHERE sku = 'TOTQ-1'")) as { id: number }[]).map((r) => Number(r.id));
    await update(first, { base_price: 2 });
    expect(await page(search)).toEqual(expect.objectContaining({ total: 6, counts: 1 }));
  });
});
