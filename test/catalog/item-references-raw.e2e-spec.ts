import { In } from 'typeorm';
import { ItemRepository } from '../../libs/catalog/src/application/catalog.ports';
import request from 'supertest';
import { RequestContext } from '@pos/platform';
import { CategoryEntity, ItemBarcodeEntity, ItemUnitEntity } from '../../libs/catalog/src/infrastructure/catalog.entities';
import { COUNTED_APP_ENV, countQueries } from '../support/query-count';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * An item page's barcodes and units are read without TypeORM's query builder (findInRaw, in
 * chunks of 1,000 item ids): the same records, in the same id order, as `find` with `In`, also
 * for more than one chunk whose rows come back out of id order. On both databases.
 */
describe('Barcodes and units of many items, read raw', () => {
  let t: TestApp;
  let ids: number[];
  const N = 1_100;

  beforeAll(async () => {
    t = await startTestApp(COUNTED_APP_ENV);
    const now = '2026-01-01 00:00:00';
    const first = Number(((await t.db.query('SELECT COALESCE(MAX(id), 0) AS m FROM items')) as { m: number | string }[])[0].m) + 1;
    ids = Array.from({ length: N }, (_, k) => first + k);
    for (let k = 0; k < N; k += 250) {
      const part = ids.slice(k, k + 250);
      await t.db.query(
        `INSERT INTO items (id, sku, name, base_price, cost, base_unit, is_active, is_serial_tracked, reorder_level, reorder_quantity, created_at, updated_at) VALUES ${part
          .map(() => "(?, ?, ?, 100, 50, 'each', 1, 0, 0, 0, ?, ?)")
          .join(', ')}`,
        part.flatMap((id) => [id, `RAW-${id}`, `Raw item ${id}`, now, now]),
      );
    }
    // Written from the last item back: the highest item ids get the lowest row ids, so the rows of
    // the second chunk of item ids come before the first chunk's in id order.
    for (const id of [...ids].reverse()) {
      if (id % 3 === 0) {
        await t.db.query("INSERT INTO item_units (item_id, name, factor, price, created_at, updated_at) VALUES (?, 'case', 12, ?, ?, ?)", [
          id,
          id % 2 ? null : 1200,
          now,
          now,
        ]);
      }
    }
    for (let k = N - 1; k >= 0; k -= 200) {
      const part = ids.slice(Math.max(0, k - 199), k + 1).reverse();
      await t.db.query(
        `INSERT INTO item_barcodes (item_id, barcode) VALUES ${part.map(() => '(?, ?)').join(', ')}`,
        part.flatMap((id) => [id, `RAWCODE${id}`]),
      );
    }
  });
  afterAll(() => t.close());

  const plain = (rows: object[]) => rows.map((r) => ({ ...r }));

  it('answers what find with In answers, in id order, across chunks', async () => {
    const repo = t.app.get(ItemRepository, { strict: false });
    const wanted = [...ids.slice(0, 600), ...ids.slice(-600)];
    const barcodes = await repo.barcodes(wanted);
    const units = await repo.units(wanted);
    const viaFind = {
      barcodes: await t.db.getRepository(ItemBarcodeEntity).find({ where: { itemId: In(wanted) }, order: { id: 'ASC' } }),
      units: await t.db.getRepository(ItemUnitEntity).find({ where: { itemId: In(wanted) }, order: { id: 'ASC' } }),
    };
    expect(barcodes.length).toBe(N);
    expect(units.length).toBeGreaterThan(300);
    expect(plain(barcodes)).toEqual(plain(viaFind.barcodes));
    expect(plain(units)).toEqual(plain(viaFind.units));
    expect(units.some((u) => u.price === null) && units.some((u) => u.price === 1200)).toBe(true);
  });

  it('answers nothing for no ids, and each item once for repeated ids', async () => {
    const repo = t.app.get(ItemRepository, { strict: false });
    expect(await repo.barcodes([])).toEqual([]);
    expect((await repo.barcodes([ids[0], ids[0], ids[1]])).map((b) => b.itemId)).toEqual([ids[1], ids[0]]);
  });

  it("reads a page's barcodes, units and category names in one statement, as the three reads answer them", async () => {
    const repo = t.app.get(ItemRepository, { strict: false });
    const page = ids.filter((id) => id % 3 === 0).slice(0, 40);
    const categories = ((await t.db.query('SELECT id FROM categories ORDER BY id')) as { id: number }[]).map((c) => Number(c.id));
    const counter = countQueries(t.db);
    const details = await RequestContext.run({ requestId: 'page-details' }, () =>
      repo.pageDetails([...page, page[0]], [categories[1], categories[0], categories[1]]),
    );
    counter.stop();
    expect(counter.statements).toHaveLength(1);
    expect(plain(details.barcodes)).toEqual(plain(await repo.barcodes(page)));
    expect(plain(details.units)).toEqual(plain(await repo.units(page)));
    expect(details.units).toHaveLength(40);
    expect((details.units[0] as ItemUnitEntity).createdAt).toBeInstanceOf(Date);
    expect(details.units.some((u) => u.price === null) && details.units.some((u) => u.price === 1200)).toBe(true);
    const full = await t.db.getRepository(CategoryEntity).find({ where: { id: In(categories.slice(0, 2)) }, order: { id: 'ASC' } });
    expect(plain(details.categories)).toEqual(full.map((c) => ({ id: c.id, name: c.name })));
    expect(await repo.pageDetails([], [])).toEqual({ barcodes: [], units: [], categories: [] });
    // More than a chunk: read part by part, the same records.
    const many = await repo.pageDetails(ids, []);
    expect(plain(many.barcodes)).toEqual(plain(await repo.barcodes(ids)));
    expect(plain(many.units)).toEqual(plain(await repo.units(ids)));
  });

  it("serves a plain GET /items page and a search's first page with their details in the page statement", async () => {
    const manager = await login(t, DEMO.manager);
    const get = (path: string) => request(t.http).get(path).set(bearer(manager));
    expect((await get('/api/v1/items?per_page=5')).status).toBe(200);
    const counter = countQueries(t.db);
    // By SKU (these rows were written raw, without the name index): one no other SKU starts with, with a unit.
    const pick = ids.filter((id) => id % 3 === 0 && id * 10 > ids[N - 1]).pop()!;
    const search = await get(`/api/v1/items?q=RAW-${pick}`);
    const searchStatements = [...counter.statements];
    counter.reset();
    const list = await get('/api/v1/items?per_page=50');
    const listStatements = [...counter.statements];
    counter.reset();
    const later = await get('/api/v1/items?q=RAW-1&per_page=5&page=2');
    const laterStatements = [...counter.statements];
    counter.stop();
    expect(search.status).toBe(200);
    expect(search.body.data.map((i: { id: number }) => i.id)).toEqual([pick]);
    expect(search.body.data[0].units).toEqual([expect.objectContaining({ name: 'case', factor: 12 })]);
    expect(search.body.data[0].barcodes).toEqual([`RAWCODE${pick}`]);
    expect(searchStatements).toHaveLength(1); // the first page with its details (every match in hand: no count)
    expect(list.status).toBe(200);
    expect(list.body.data.some((i: { category: unknown }) => i.category !== null)).toBe(true);
    expect(listStatements).toHaveLength(1); // the page with its details (its total held since the first page: ItemListTotals)
    // A later page of a search: its statement sends every match before it, so the details are a read of their own.
    expect(later.status).toBe(200);
    expect(later.body.data).toHaveLength(5);
    expect(laterStatements).toHaveLength(3); // the page, the count (the page is full), the details
    expect(laterStatements[2]).toMatch(/item_barcodes[\s\S]*UNION ALL[\s\S]*item_units/);
    // One item: its barcodes and units in one statement too.
    const counted = countQueries(t.db);
    const one = await get(`/api/v1/items/${pick}`);
    counted.stop();
    expect(one.status).toBe(200);
    expect(one.body.data.barcodes).toEqual([`RAWCODE${pick}`]);
    expect(one.body.data.units).toEqual([expect.objectContaining({ name: 'case', factor: 12 })]);
    const reads = counted.statements.filter((s) => /item_barcodes|item_units/.test(s));
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/item_barcodes[\s\S]*UNION ALL[\s\S]*item_units/);
  });

  it('answers the views the separate details read answers, for plain pages and first search pages', async () => {
    const { ItemService } = await import('@pos/catalog');
    const service = t.app.get(ItemService);
    const repo = t.app.get(ItemRepository, { strict: false });
    // Several barcodes, a unit with its own barcode, a unit without a price, a category and none.
    const [cat] = (await t.db.query('SELECT id FROM categories ORDER BY id')) as { id: number }[];
    const rich = ids.filter((id) => id % 3 === 0)[1];
    await t.db.query('UPDATE items SET category_id = ? WHERE id = ?', [cat.id, rich]);
    await t.db.query('INSERT INTO item_barcodes (item_id, barcode) VALUES (?, ?), (?, ?)', [rich, 'RAWEXTRA-"quoted"\\', rich, 'RAWEXTRA-ü']);
    const [unit] = (await t.db.query('SELECT id FROM item_units WHERE item_id = ?', [rich])) as { id: number }[];
    await t.db.query('INSERT INTO item_barcodes (item_id, barcode, item_unit_id) VALUES (?, ?, ?)', [rich, `RAWCASE${rich}`, unit.id]);
    await t.db.query("INSERT INTO item_units (item_id, name, factor, price, created_at, updated_at) VALUES (?, 'pallet', 480, NULL, ?, ?)", [
      rich,
      '2026-01-01 00:00:00',
      '2026-01-01 00:00:00',
    ]);
    const filters = [{}, { q: `RAW-${rich}` }, { q: 'raw item' }, { categoryId: cat.id }, { q: 'RAW-', isActive: true }];
    for (const filter of filters)
      for (const page of [
        { page: 1, perPage: 25 },
        { page: 2, perPage: 10 },
      ]) {
        const viaPage = await RequestContext.run({ requestId: 'folded' }, () => service.list(filter, page));
        const separate = await RequestContext.run({ requestId: 'separate' }, async () => service.withDetails(await repo.list(filter, page)));
        expect(JSON.parse(JSON.stringify(viaPage))).toEqual(JSON.parse(JSON.stringify(separate)));
      }
    const shown = (await RequestContext.run({ requestId: 'rich' }, () => service.list({ q: `RAW-${rich}` }, { page: 1, perPage: 5 }))).items[0];
    expect(shown.barcodes).toEqual([`RAWCODE${rich}`, 'RAWEXTRA-"quoted"\\', 'RAWEXTRA-ü']);
    expect(shown.units).toEqual([
      expect.objectContaining({ name: 'case', factor: 12, barcode: `RAWCASE${rich}` }),
      expect.objectContaining({ name: 'pallet', factor: 480, price: null, barcode: null }),
    ]);
    expect(shown.category).toEqual(expect.objectContaining({ id: Number(cat.id) }));
    // Each item's rows by the item id index, on both databases
    const counter = countQueries(t.db);
    await request(t.http)
      .get('/api/v1/items?per_page=20')
      .set(bearer(await login(t, DEMO.manager)));
    counter.stop();
    const [page] = counter.statements.filter((s) => s.includes('d_barcodes'));
    if (t.isMysql) {
      const plan = (await t.db.query(`EXPLAIN ${page}`, [20, 0])) as { table: string; type: string }[];
      expect(plan.filter((r) => /^d[bu]$/.test(r.table)).map((r) => `${r.table}:${r.type}`)).toEqual(['du:ref', 'db:ref']);
    } else {
      const plan = ((await t.db.query(`EXPLAIN QUERY PLAN ${page}`, [20, 0])) as { detail: string }[]).map((r) => r.detail);
      expect(plan.filter((d) => /^(SCAN|SEARCH) d[bu]\b/.test(d))).toEqual([
        expect.stringMatching(/^SEARCH db USING (COVERING )?INDEX \w+ \(item_id=\?\)/),
        expect.stringMatching(/^SEARCH du USING (COVERING )?INDEX \w+ \(item_id=\?\)/),
      ]);
    }
  });

  it("reads the till's references (live items, units, barcodes) in one statement, as the three reads answer them", async () => {
    const repo = t.app.get(ItemRepository, { strict: false });
    const some = ids.filter((id) => id % 3 === 0).slice(0, 30);
    await t.db.query('UPDATE items SET deleted_at = ? WHERE id = ?', ['2026-01-02 00:00:00', some[1]]);
    const counter = countQueries(t.db);
    const refs = await RequestContext.run({ requestId: 'references' }, () => repo.references(some));
    counter.stop();
    expect(counter.statements).toHaveLength(1);
    const live = await repo.findByIds(some);
    expect(live).toHaveLength(29);
    expect(refs.items.map((i) => i.id)).not.toContain(some[1]);
    expect(plain(refs.items)).toEqual(plain([...live].sort((a, b) => a.id - b.id)));
    expect(plain(refs.units)).toEqual(plain(await repo.units(some)));
    expect(plain(refs.barcodes)).toEqual(plain(await repo.barcodes(some)));
    expect(refs.items[0].createdAt).toBeInstanceOf(Date);
    expect(typeof refs.items[0].isActive).toBe('boolean');
    await t.db.query('UPDATE items SET deleted_at = NULL WHERE id = ?', [some[1]]);
  });
});
