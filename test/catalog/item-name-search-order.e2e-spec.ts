import request from 'supertest';
import { foldForSearch } from '@pos/kernel';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * GET /items?q= pages the matches from the word index alone (issue 29: the rows carry each live
 * item's name and active flag): the order is the items' own (the name column's collation, then
 * id), the total exact, an item found by two word starts or by a word and its SKU counts once,
 * and the rows follow every write of a name, an active flag and a deletion. On both databases.
 */
describe('Item name search: order, total and filters from the index', () => {
  let t: TestApp;
  let manager: string;
  const api = () => request(t.http);
  const made: number[] = [];
  let category: number;

  /** Every page of a search, per_page at a time: the ids in order and each page's total. */
  const pages = async (query: Record<string, unknown>, perPage: number) => {
    const ids: number[] = [];
    const totals = new Set<number>();
    for (let page = 1; page <= 40; page++) {
      const res = await api()
        .get('/api/v1/items')
        .query({ ...query, per_page: perPage, page })
        .set(bearer(manager));
      expect(res.status).toBe(200);
      totals.add(res.body.meta.total);
      if (!res.body.data.length) break;
      ids.push(...(res.body.data as { id: number }[]).map((i) => i.id));
    }
    return { ids, totals: [...totals] };
  };

  /** The same items as the database orders them by the items' name column itself. */
  const expected = async (where: string, params: unknown[] = []) =>
    ((await t.db.query(`SELECT id FROM items WHERE deleted_at IS NULL AND ${where} ORDER BY name, id`, params)) as { id: number | string }[]).map((r) =>
      Number(r.id),
    );

  /** Items whose name starts with this folded text (accents off, as the search and MySQL's collation compare), in the name column's order. */
  const expectedStarting = async (prefix: string) => {
    const rows = (await t.db.query('SELECT id, name FROM items WHERE deleted_at IS NULL ORDER BY name, id')) as { id: number | string; name: string }[];
    return rows.filter((r) => foldForSearch(r.name).startsWith(prefix)).map((r) => Number(r.id));
  };

  const create = async (body: Record<string, unknown>) => {
    const res = await api()
      .post('/api/v1/items')
      .set(bearer(manager))
      .send({ base_price: 1, ...body });
    expect([body.name, res.status]).toEqual([body.name, 201]);
    made.push(res.body.data.id);
    return res.body.data.id as number;
  };

  beforeAll(async () => {
    // No totals held (ItemListTotals): every page shows when and how its search counts.
    t = await startTestApp({ REFERENCE_CACHE_TTL_MS: '0' });
    manager = await login(t, DEMO.manager);
    const admin = await login(t, DEMO.admin);
    const cat = await api().post('/api/v1/categories').set(bearer(admin)).send({ name: 'Zorblax Shelf' });
    expect(cat.status).toBe(201);
    category = cat.body.data.id;
    // Names that differ only by case or accents, whose byte order differs from a collation's,
    // and names with the word twice (two tails match the term).
    const variants = ['apple', 'Apple', 'äpple', 'Äpple', 'apple b', 'APPLE a', 'éclair', 'Eclair', 'eclair', 'zebra', 'Zebra', 'Ölfass', 'olive'];
    for (const [k, v] of variants.entries()) {
      await create({ sku: `ZRB-${k}-A`, name: `Zorblax ${v}`, category_id: k % 2 === 0 ? category : undefined });
      await create({ sku: `ZRB-${k}-B`, name: `${v} zorblax`, is_active: k % 3 !== 0 });
    }
    await create({ sku: 'ZRB-TWICE', name: 'Zorblax zorblax twice' });
    // Found by its SKU only, and by its SKU and a word
    await create({ sku: 'ZORBLAX-SKU', name: 'Plain thing' });
    await create({ sku: 'ZORBLAX-BOTH', name: 'Zorblax both ways' });
  });
  afterAll(() => t.close());

  it('pages many matches of one word in the collation order of names, then id, with the exact total', async () => {
    const want = await expected("(lower(name) LIKE '%zorblax%' OR sku LIKE 'ZORBLAX-%')");
    expect(want.length).toBe(29);
    for (const perPage of [7, 50]) {
      const got = await pages({ q: 'zorb' }, perPage);
      expect(got).toEqual({ ids: want, totals: [want.length] });
    }
    // Two words into the name; and a word further in
    expect((await pages({ q: 'zorblax ap' }, 4)).ids).toEqual(await expectedStarting('zorblax ap')); // äpple too
    expect((await pages({ q: 'ZEBRA zorb' }, 4)).ids).toEqual(await expected("lower(name) LIKE 'zebra zorblax%'"));
  });

  it('counts a short term found by words only in the page statement, others only when the page does not hold all', async () => {
    for (let k = 1; k <= 5; k++) await create({ sku: `QXL-${k}`, name: `Quuxly longer common name ${k}` });
    const seen: string[] = [];
    const logger = t.db.logger;
    const original = logger.logQuery;
    logger.logQuery = function (this: unknown, query, parameters, runner) {
      if (/item_name_(words|prefixes)/.test(query)) seen.push(query);
      return original.call(logger, query, parameters, runner);
    };
    /** The answer's total and rows, the statements that read a name index and which of them only count. */
    const total = async (query: Record<string, unknown>) => {
      seen.length = 0;
      const res = await api().get('/api/v1/items').query(query).set(bearer(manager));
      expect(res.status).toBe(200);
      const counts = seen.filter((q) => q.startsWith('SELECT (SELECT COUNT(')).length;
      return { total: res.body.meta.total as number, shown: (res.body.data as unknown[]).length, statements: seen.length, counts };
    };
    try {
      // A short term (the prefix index) with 29 matches, 2 of them by SKU: counted on its own only
      // when the page does not hold them all
      expect(await total({ q: 'zorb', per_page: 50 })).toEqual({ total: 29, shown: 29, statements: 1, counts: 0 });
      expect(await total({ q: 'zorb', per_page: 7 })).toEqual({ total: 29, shown: 7, statements: 2, counts: 1 });
      expect(await total({ q: 'zorb', per_page: 5, page: 2 })).toEqual({ total: 29, shown: 5, statements: 2, counts: 1 });
      expect(await total({ q: 'zorb', per_page: 14, page: 3 })).toEqual({ total: 29, shown: 1, statements: 1, counts: 0 });
      expect(await total({ q: 'zorb', per_page: 14, page: 4 })).toEqual({ total: 29, shown: 0, statements: 1, counts: 0 });
      expect(await total({ q: 'zorblax zorb', per_page: 1 })).toEqual({ total: 1, shown: 1, statements: 1, counts: 0 });
      expect(await total({ q: 'nothing-like-this', per_page: 5 })).toEqual({ total: 0, shown: 0, statements: 1, counts: 0 });
      // words only, a full page: the count rides in the page statement
      const apples = (await expectedStarting('zorblax ap')).length;
      expect(apples).toBeGreaterThan(1);
      expect(await total({ q: 'zorblax ap', per_page: 1 })).toEqual({ total: apples, shown: 1, statements: 1, counts: 0 });
      // A longer term (the word index's range): 5 matches; a count of its own only when the page is full
      expect(await total({ q: 'quuxly longer common', per_page: 10 })).toEqual({ total: 5, shown: 5, statements: 1, counts: 0 });
      expect(await total({ q: 'quuxly longer common', per_page: 2 })).toEqual({ total: 5, shown: 2, statements: 2, counts: 1 });
      expect(await total({ q: 'quuxly longer common', per_page: 2, page: 3 })).toEqual({ total: 5, shown: 1, statements: 1, counts: 0 });
      expect(await total({ q: 'quuxly longer common', per_page: 2, page: 4 })).toEqual({ total: 5, shown: 0, statements: 1, counts: 0 });
      expect(await total({ q: 'quuxly longer common name 3', per_page: 1 })).toEqual({ total: 1, shown: 1, statements: 2, counts: 1 });
      expect(await total({ q: 'quuxly longer common name 3', per_page: 2 })).toEqual({ total: 1, shown: 1, statements: 1, counts: 0 });
      // A full page of a short term that also finds items by SKU or barcode: counted on its own
      // (an item found by its SKU only, one by its barcode only, one by a word and its barcode)
      expect(await total({ q: 'quuxly', per_page: 2 })).toEqual({ total: 5, shown: 2, statements: 1, counts: 0 });
      await create({ sku: 'QUUXLY-SKU', name: 'Plain other thing' });
      expect(await total({ q: 'quuxly', per_page: 2 })).toEqual({ total: 6, shown: 2, statements: 2, counts: 1 });
      await create({ sku: 'QBC-1', name: 'Barcode only thing', barcodes: ['quuxly'] });
      expect(await total({ q: 'quuxly', per_page: 2 })).toEqual({ total: 7, shown: 2, statements: 2, counts: 1 });
      expect(await total({ q: 'quuxly', per_page: 10 })).toEqual({ total: 7, shown: 7, statements: 1, counts: 0 });
      for (let k = 1; k <= 3; k++) await create({ sku: `QBC-Z${k}`, name: `Zedq ${k}`, barcodes: k === 2 ? ['zedq'] : [] });
      expect(await total({ q: 'zedq', per_page: 1 })).toEqual({ total: 3, shown: 1, statements: 2, counts: 1 });
      expect(await total({ q: 'qbc', per_page: 1 })).toEqual({ total: 4, shown: 1, statements: 2, counts: 1 });
    } finally {
      logger.logQuery = original;
    }
  });

  it('applies is_active and category_id as the plain list does', async () => {
    const active = await pages({ q: 'zorblax', is_active: true }, 6);
    const activeWant = await expected("(lower(name) LIKE '%zorblax%' OR sku LIKE 'ZORBLAX-%') AND is_active = ?", [1]);
    expect(active).toEqual({ ids: activeWant, totals: [activeWant.length] });
    const inactive = await pages({ q: 'zorblax', is_active: false }, 6);
    expect(inactive.ids).toEqual(await expected("lower(name) LIKE '%zorblax%' AND is_active = ?", [0]));
    expect(inactive.ids.length).toBeGreaterThan(0);
    const inCategory = await pages({ q: 'zorb', category_id: category }, 3);
    expect(inCategory.ids).toEqual(await expected('category_id = ?', [category]));
    expect(inCategory.ids.length).toBe(7);
  });

  it('follows a rename, a change of the active flag and a deletion at the next search', async () => {
    const [first, second, third] = made;
    const put = async (id: number, body: Record<string, unknown>) =>
      expect((await api().put(`/api/v1/items/${id}`).set(bearer(manager)).send(body)).status).toBe(200);
    const activeIds = async () => (await pages({ q: 'zorblax', is_active: true }, 50)).ids;
    await put(first, { is_active: false });
    expect(await activeIds()).not.toContain(first);
    expect((await pages({ q: 'zorblax', is_active: false }, 50)).ids).toContain(first);
    await put(first, { is_active: true });
    expect(await activeIds()).toContain(first);
    // A rename keeps the item's active flag (not given with it)
    await put(second, { is_active: false });
    await put(second, { name: 'Zorblax renamed inactive' });
    expect(await activeIds()).not.toContain(second);
    expect((await pages({ q: 'zorblax renamed', is_active: false }, 50)).ids).toEqual([second]);
    // Rename and activate in one write
    await put(second, { name: 'Zorblax renamed active', is_active: true });
    expect((await pages({ q: 'zorblax renamed', is_active: true }, 50)).ids).toEqual([second]);
    // A deleted item is found no more, and its word rows are gone
    expect((await api().delete(`/api/v1/items/${third}`).set(bearer(manager))).status).toBeLessThan(300);
    expect((await pages({ q: 'zorb' }, 50)).ids).not.toContain(third);
    expect(await t.db.query('SELECT item_id FROM item_name_words WHERE item_id = ?', [third])).toEqual([]);
    const all = await pages({ q: 'zorb' }, 5);
    expect(all.totals).toEqual([all.ids.length]);
    expect(all.ids).toEqual(await expected("(lower(name) LIKE '%zorblax%' OR sku LIKE 'ZORBLAX-%')"));
  });

  it('rebuilds the rows with the names and flags (catalog:reindex-names), live items only', async () => {
    const before = (await pages({ q: 'zorb', is_active: true }, 50)).ids;
    await t.db.query('DELETE FROM item_name_words');
    const { ItemService } = await import('@pos/catalog');
    await t.app.get(ItemService).rebuildNameIndex();
    expect((await pages({ q: 'zorb', is_active: true }, 50)).ids).toEqual(before);
    const orphans = await t.db.query('SELECT w.item_id FROM item_name_words w JOIN items i ON i.id = w.item_id WHERE i.deleted_at IS NOT NULL');
    expect(orphans).toEqual([]);
  });
});
