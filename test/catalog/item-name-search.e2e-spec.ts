import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The name search index (issue 12, item 4): GET /items?q= and the POS search's fallback find
 * names with a word starting with q through item_name_words (a range read of its tail index),
 * kept on every create and rename, on both databases; the plans read indexes, never a whole table.
 */
describe('Item name search index', () => {
  let t: TestApp;
  let manager: string;
  const api = () => request(t.http);
  const names = async (q: string) => {
    const res = await api().get('/api/v1/items').query({ q, per_page: 100 }).set(bearer(manager));
    expect(res.status).toBe(200);
    return (res.body.data as { name: string }[]).map((i) => i.name);
  };

  beforeAll(async () => {
    t = await startTestApp();
    manager = await login(t, DEMO.manager);
  });
  afterAll(() => t.close());

  it('finds a new item by any word start, across words, in any case, and follows a rename', async () => {
    const made = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'IDX-1', name: 'Crème Brûlée Dessert-Cup (XL)', base_price: 3 });
    expect(made.status).toBe(201);
    for (const q of ['crème', 'CRÈME BR', 'brûlée des', 'dessert-cup', 'cup (x', 'xl', 'Crème Brûlée Dessert-Cup (XL)'])
      expect([q, await names(q)]).toEqual([q, ['Crème Brûlée Dessert-Cup (XL)']]);
    for (const q of ['rème', 'ssert', 'brûléedessert']) expect([q, await names(q)]).toEqual([q, []]);
    const renamed = await api().put(`/api/v1/items/${made.body.data.id}`).set(bearer(manager)).send({ name: 'Vanilla Pudding Cup' });
    expect(renamed.status).toBe(200);
    expect(await names('crème')).toEqual([]);
    expect(await names('pudd')).toEqual(['Vanilla Pudding Cup']);
    const rows = await t.db.query('SELECT tail FROM item_name_words WHERE item_id = ? ORDER BY position', [made.body.data.id]);
    expect(rows.map((r: { tail: string }) => r.tail)).toEqual(['vanilla pudding cup', 'pudding cup', 'cup']);
  });

  it('pages the matches with their exact total, past the last page too', async () => {
    for (let k = 0; k < 5; k++)
      expect(
        (
          await api()
            .post('/api/v1/items')
            .set(bearer(manager))
            .send({ sku: `PG-${k}`, name: `Pagination Probe ${5 - k}`, base_price: 1 })
        ).status,
      ).toBe(201);
    const seen: string[] = [];
    for (let p = 1; p <= 4; p++) {
      const res = await api().get('/api/v1/items').query({ q: 'pagination pro', per_page: 2, page: p }).set(bearer(manager));
      expect(res.status).toBe(200);
      expect([p, res.body.meta.total, res.body.meta.last_page]).toEqual([p, 5, 3]);
      seen.push(...(res.body.data as { name: string }[]).map((i) => i.name));
    }
    expect(seen).toEqual([1, 2, 3, 4, 5].map((k) => `Pagination Probe ${k}`));
    // The SKU prefix and the word start of the same item count it once.
    const both = await api().get('/api/v1/items').query({ q: 'pg-1' }).set(bearer(manager));
    expect([both.body.meta.total, both.body.data.map((i: { sku: string }) => i.sku)]).toEqual([1, ['PG-1']]);
  });

  it('takes LIKE wildcards literally and answers odd or oversized terms without a 5xx', async () => {
    for (const q of ['%', '_', '\\', 'a%b', '%water']) expect([q, await names(q)]).toEqual([q, []]);
    for (const q of ['\u{10FFFF}', '😀 cola', "'; DROP TABLE items; --", 'x'.repeat(255), ' '.repeat(50)]) {
      const res = await api().get('/api/v1/items').query({ q }).set(bearer(manager));
      expect([q.slice(0, 20), res.status]).toEqual([q.slice(0, 20), 200]);
    }
    const huge = await api()
      .get('/api/v1/items')
      .query({ q: 'x'.repeat(256) })
      .set(bearer(manager));
    expect(huge.status).toBe(422);
    expect(huge.body.errors.q).toBeDefined();
    expect(await names('Still Water 500ml')).toEqual(['Still Water 500ml']);
  });

  it('is rebuilt from the items by catalog:reindex-names (after a raw import)', async () => {
    await t.db.query('DELETE FROM item_name_words');
    expect(await names('water')).toEqual([]);
    const { ItemService } = await import('@pos/catalog');
    expect(await t.app.get(ItemService).rebuildNameIndex()).toBeGreaterThan(60);
    expect(await names('water')).toEqual(['Sparkling Water 500ml', 'Still Water 500ml']);
  });

  it('reads indexes only: the word index for names, the SKU index, items by key', async () => {
    const seen: { sql: string; params: unknown[] }[] = [];
    const logger = t.db.logger;
    const original = logger.logQuery;
    logger.logQuery = function (this: unknown, query, parameters, runner) {
      if (query.includes('item_name_words') && !query.startsWith('EXPLAIN')) seen.push({ sql: query, params: parameters ?? [] });
      return original.call(logger, query, parameters, runner);
    };
    try {
      await names('water');
      await api().get('/api/v1/pos/products/search').query({ q: 'wat', store_id: 1 }).set(bearer(manager)).expect(200);
    } finally {
      logger.logQuery = original;
    }
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (const s of seen) {
      const plan = t.isMysql
        ? ((await t.db.query(`EXPLAIN ${s.sql}`, s.params)) as { table: string; type: string; key: string | null }[]).map(
            (r) => `${r.table}:${r.type}:${r.key}`,
          )
        : ((await t.db.query(`EXPLAIN QUERY PLAN ${s.sql}`, s.params)) as { detail: string }[]).map((r) => r.detail);
      const text = plan.join(' | ');
      expect(text).toMatch(/IDX_item_name_words_tail/);
      // no full read of a table (MySQL: type ALL on a real table; SQLite: SCAN of one)
      const full = t.isMysql
        ? plan.filter((p) => /^[a-z]\w*:ALL:/.test(p) || (p.startsWith('i:') && !p.startsWith('i:eq_ref:')))
        : plan.filter((p) => /^SCAN (i|w|s|b)\b/.test(p) || (/^SEARCH i\b/.test(p) && !p.includes('INTEGER PRIMARY KEY')));
      expect([s.sql.slice(0, 60), full]).toEqual([s.sql.slice(0, 60), []]);
    }
  });
});
