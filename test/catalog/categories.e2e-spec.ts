import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds, expectNo5xx, HOSTILE_IDS, LONG } from './catalog-helpers';

interface Cat {
  id: number;
  name: string;
  parent_id: number | null;
  item_count?: number;
  children?: Cat[];
}

/** Categories (contract 4.2): list / tree / counts, create 201, update, delete (409 while in use). */
describe('Catalog categories', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const api = () => request(t.http);
  const create = (body: Record<string, unknown>, token = manager) => api().post('/api/v1/categories').set(bearer(token)).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
    ids = await demoIds(t);
  });
  afterAll(() => t.close());

  describe('GET /categories', () => {
    it('lists every category flat, in sort order, paginated', async () => {
      const res = await api().get('/api/v1/categories').set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.map((c: Cat) => c.name)).toEqual(['Beverages', 'Coffee & Tea', 'Snacks', 'Groceries', 'Household', 'Electronics']);
      expect(res.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 50, total: 6 });
      const coffee = res.body.data[1];
      expect(coffee).toMatchObject({
        id: ids.category.coffee,
        name: 'Coffee & Tea',
        slug: 'coffee',
        parent_id: ids.category.beverages,
        is_active: true,
        sort_order: 1,
      });
      expect(coffee.item_count).toBeUndefined();
      expect(coffee.children).toBeUndefined();

      const page = await api().get('/api/v1/categories?per_page=4&page=2').set(bearer(cashier));
      expect(page.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 4, total: 6 });
      expect(page.body.data.map((c: Cat) => c.name)).toEqual(['Household', 'Electronics']);
      expect((await api().get('/api/v1/categories?per_page=1000').set(bearer(cashier))).body.meta.per_page).toBe(100);
    });

    it('nests descendants with tree=true and adds item_count with with_counts=true', async () => {
      const res = await api().get('/api/v1/categories?tree=true&with_counts=true').set(bearer(cashier));
      expect(res.status).toBe(200);
      const top: Cat[] = res.body.data;
      expect(top.map((c) => c.name)).toEqual(['Beverages', 'Snacks', 'Groceries', 'Household', 'Electronics']);
      expect(res.body.meta.total).toBe(5);
      const bev = top[0];
      expect(bev.item_count).toBe(5);
      expect(bev.children).toHaveLength(1);
      expect(bev.children![0]).toMatchObject({ name: 'Coffee & Tea', parent_id: bev.id, item_count: 3, children: [] });
      const counts = Object.fromEntries(top.map((c) => [c.name, c.item_count]));
      // Snacks counts the inactive Gift Card Sleeve too: item_count is every non-deleted item.
      expect(counts).toEqual({ Beverages: 5, Snacks: 6, Groceries: 7, Household: 5, Electronics: 6 });
      for (const c of top.slice(1)) expect(c.children).toEqual([]);

      const flatCounts = await api().get('/api/v1/categories?with_counts=1').set(bearer(cashier));
      expect(flatCounts.body.data.find((c: Cat) => c.name === 'Coffee & Tea').item_count).toBe(3);
      expect(flatCounts.body.data.every((c: Cat) => c.children === undefined)).toBe(true);
    });

    it('filters by name and by parent', async () => {
      const byName = await api().get('/api/v1/categories?q=bev').set(bearer(cashier));
      expect(byName.body.data.map((c: Cat) => c.name)).toEqual(['Beverages']);
      const children = await api().get(`/api/v1/categories?parent_id=${ids.category.beverages}`).set(bearer(cashier));
      expect(children.body.data.map((c: Cat) => c.name)).toEqual(['Coffee & Tea']);
      // LIKE wildcards are taken literally.
      for (const q of ['%', '_', "' OR '1'='1"]) {
        const res = await api()
          .get(`/api/v1/categories?q=${encodeURIComponent(q)}`)
          .set(bearer(cashier));
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
      }
      const amp = await api()
        .get(`/api/v1/categories?q=${encodeURIComponent('&')}`)
        .set(bearer(cashier));
      expect(amp.body.data.map((c: Cat) => c.name)).toEqual(['Coffee & Tea']);
    });

    it('rejects bad query values with 422 naming the parameter, never a 5xx', async () => {
      for (const bad of [
        'tree=maybe',
        'with_counts=2',
        'parent_id=abc',
        `parent_id=${encodeURIComponent("1' OR '1'='1")}`,
        'parent_id=-1',
        'per_page=0',
        'per_page=abc',
        `q=${LONG}`,
        'is_active=yes',
      ]) {
        const res = await api().get(`/api/v1/categories?${bad}`).set(bearer(cashier));
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(res.body.errors[bad.split('=')[0]]).toBeDefined();
      }
      expectNo5xx(await api().get('/api/v1/categories?parent_id=99999999999999999999').set(bearer(cashier)), [422]);
    });
  });

  describe('GET /categories/{category}', () => {
    it('returns the category with its parent, children and item count', async () => {
      const bev = await api().get(`/api/v1/categories/${ids.category.beverages}`).set(bearer(cashier));
      expect(bev.status).toBe(200);
      expect(bev.body.data).toMatchObject({ id: ids.category.beverages, name: 'Beverages', parent_id: null, parent: null, item_count: 5 });
      expect(bev.body.data.children.map((c: Cat) => c.name)).toEqual(['Coffee & Tea']);
      const coffee = await api().get(`/api/v1/categories/${ids.category.coffee}`).set(bearer(cashier));
      expect(coffee.body.data).toMatchObject({ name: 'Coffee & Tea', item_count: 3, children: [] });
      expect(coffee.body.data.parent).toMatchObject({ id: ids.category.beverages, name: 'Beverages' });
    });

    it('answers unknown and hostile ids with 404', async () => {
      expectErrorEnvelope(await api().get('/api/v1/categories/999999').set(bearer(cashier)), 404);
      for (const id of HOSTILE_IDS)
        expectErrorEnvelope(
          await api()
            .get(`/api/v1/categories/${encodeURIComponent(id)}`)
            .set(bearer(cashier)),
          404,
        );
    });
  });

  describe('POST /categories', () => {
    it('creates a category with 201, top level or under a parent', async () => {
      const res = await create({ name: '  Frozen Food ', description: 'Ice cream and more', sort_order: 7 });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      expect(res.body.data).toMatchObject({
        name: 'Frozen Food',
        slug: 'frozen-food',
        description: 'Ice cream and more',
        parent_id: null,
        is_active: true,
        sort_order: 7,
      });
      expect(Number.isInteger(res.body.data.id)).toBe(true);
      const [row] = await t.db.query('SELECT name, parent_id, deleted_at FROM categories WHERE id = ?', [res.body.data.id]);
      expect(row).toMatchObject({ name: 'Frozen Food', parent_id: null, deleted_at: null });

      const child = await create({ name: 'Ice Cream', parent_id: res.body.data.id, is_active: false });
      expect(child.status).toBe(201);
      expect(child.body.data).toMatchObject({ name: 'Ice Cream', parent_id: res.body.data.id, is_active: false, sort_order: 0 });
      const shown = await api().get(`/api/v1/categories/${res.body.data.id}`).set(bearer(cashier));
      expect(shown.body.data.children.map((c: Cat) => c.name)).toEqual(['Ice Cream']);
      const inactive = await api().get('/api/v1/categories?is_active=false').set(bearer(cashier));
      expect(inactive.body.data.map((c: Cat) => c.name)).toEqual(['Ice Cream']);
    });

    it('refuses a duplicate name among siblings (any case) with 422 errors.name, but allows it elsewhere in the tree', async () => {
      for (const name of ['Beverages', 'beverages', ' SNACKS ']) {
        const dup = await create({ name });
        expectErrorEnvelope(dup, 422, 'The given data was invalid.');
        expect(dup.body.errors.name).toHaveLength(1);
      }
      const dupChild = await create({ name: 'coffee & tea', parent_id: ids.category.beverages });
      expectErrorEnvelope(dupChild, 422);
      expect(dupChild.body.errors.name).toBeDefined();
      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM categories WHERE LOWER(name) = 'beverages'");
      expect(Number(n)).toBe(1);

      const elsewhere = await create({ name: 'Snacks', parent_id: ids.category.beverages });
      expect(elsewhere.status).toBe(201);
      expect(elsewhere.body.data.parent_id).toBe(ids.category.beverages);
    });

    it('validates the body: required name, types, lengths, ranges, unknown parent', async () => {
      const missing = await create({});
      expectErrorEnvelope(missing, 422, 'The given data was invalid.');
      expect(missing.body.errors.name).toEqual(['The name field is required.']);

      const bad = await create({ name: LONG, description: 'd'.repeat(5001), sort_order: -1, is_active: 'yes', parent_id: 'abc' });
      expectErrorEnvelope(bad, 422);
      expect(Object.keys(bad.body.errors).sort()).toEqual(['description', 'is_active', 'name', 'parent_id', 'sort_order']);

      const types = await create({ name: 42, sort_order: 100001, parent_id: -5 });
      expect(types.status).toBe(422);
      expect(Object.keys(types.body.errors).sort()).toEqual(['name', 'parent_id', 'sort_order']);

      const unknownParent = await create({ name: 'Orphan', parent_id: 999999 });
      expectErrorEnvelope(unknownParent, 422);
      expect(unknownParent.body.errors.parent_id).toEqual(['The selected parent category does not exist.']);

      const sqlParent = await create({ name: 'Orphan', parent_id: "1' OR '1'='1" });
      expect(sqlParent.status).toBe(422);
      expect(sqlParent.body.errors.parent_id).toBeDefined();

      const huge = await create({ name: 'Orphan', parent_id: 99999999999999 });
      expect(huge.status).toBe(422);
      expect(huge.body.errors.parent_id).toBeDefined();

      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM categories WHERE name = 'Orphan'");
      expect(Number(n)).toBe(0);
    });

    it('refuses a blank (whitespace-only) name with 422 errors.name', async () => {
      const res = await create({ name: '    ' });
      expectErrorEnvelope(res, 422, 'The given data was invalid.');
      expect(res.body.errors.name).toBeDefined();
      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM categories WHERE TRIM(name) = ''");
      expect(Number(n)).toBe(0);
    });

    it('needs catalog.manage (403 for a cashier) and a token (401)', async () => {
      expectErrorEnvelope(await create({ name: 'Cashier Category' }, cashier), 403);
      expectErrorEnvelope(await api().post('/api/v1/categories').send({ name: 'Anon' }), 401);
      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM categories WHERE name IN ('Cashier Category', 'Anon')");
      expect(Number(n)).toBe(0);
    });
  });

  describe('PUT /categories/{category}', () => {
    let parent: Cat;
    let child: Cat;
    let grandchild: Cat;

    beforeAll(async () => {
      parent = (await create({ name: 'Move Parent' })).body.data;
      child = (await create({ name: 'Move Child', parent_id: parent.id })).body.data;
      grandchild = (await create({ name: 'Move Grandchild', parent_id: child.id })).body.data;
    });

    it('updates name, description, flags and order', async () => {
      const res = await api()
        .put(`/api/v1/categories/${child.id}`)
        .set(bearer(manager))
        .send({ name: 'Moved Child', description: 'x', is_active: false, sort_order: 3 });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        id: child.id,
        name: 'Moved Child',
        slug: 'moved-child',
        description: 'x',
        is_active: false,
        sort_order: 3,
        parent_id: parent.id,
      });
      const shown = await api().get(`/api/v1/categories/${child.id}`).set(bearer(cashier));
      expect(shown.body.data).toMatchObject({ name: 'Moved Child', is_active: false });
      // Keeping its own name is not a duplicate.
      const same = await api().put(`/api/v1/categories/${child.id}`).set(bearer(manager)).send({ name: 'Moved Child' });
      expect(same.status).toBe(200);
    });

    it('refuses to move a category under itself or one of its descendants (422 errors.parent_id)', async () => {
      for (const target of [parent.id, child.id, grandchild.id]) {
        const res = await api().put(`/api/v1/categories/${parent.id}`).set(bearer(manager)).send({ parent_id: target });
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(res.body.errors.parent_id).toHaveLength(1);
      }
      const [row] = await t.db.query('SELECT parent_id FROM categories WHERE id = ?', [parent.id]);
      expect(row.parent_id).toBeNull();
    });

    it('moves a category to another parent and back to the top level with parent_id null', async () => {
      const under = await api().put(`/api/v1/categories/${grandchild.id}`).set(bearer(manager)).send({ parent_id: ids.category.household });
      expect(under.status).toBe(200);
      expect(under.body.data.parent_id).toBe(ids.category.household);
      const top = await api().put(`/api/v1/categories/${grandchild.id}`).set(bearer(manager)).send({ parent_id: null });
      expect(top.status).toBe(200);
      expect(top.body.data.parent_id).toBeNull();
      const tree = await api().get('/api/v1/categories?tree=true&per_page=100').set(bearer(cashier));
      expect(tree.body.data.map((c: Cat) => c.name)).toContain('Move Grandchild');
    });

    it("refuses a rename or move onto a sibling's name, an unknown parent, and bad types (422)", async () => {
      const rename = await api().put(`/api/v1/categories/${ids.category.snacks}`).set(bearer(manager)).send({ name: 'groceries' });
      expectErrorEnvelope(rename, 422);
      expect(rename.body.errors.name).toBeDefined();
      // "Snacks" already exists under Beverages (created above): moving the top-level Snacks there clashes.
      const move = await api().put(`/api/v1/categories/${ids.category.snacks}`).set(bearer(manager)).send({ parent_id: ids.category.beverages });
      expectErrorEnvelope(move, 422);
      expect(move.body.errors.name).toBeDefined();
      const unknownParent = await api().put(`/api/v1/categories/${ids.category.snacks}`).set(bearer(manager)).send({ parent_id: 999999 });
      expect(unknownParent.status).toBe(422);
      expect(unknownParent.body.errors.parent_id).toBeDefined();
      const types = await api()
        .put(`/api/v1/categories/${ids.category.snacks}`)
        .set(bearer(manager))
        .send({ name: LONG, sort_order: 'first', is_active: 'no' });
      expect(types.status).toBe(422);
      expect(Object.keys(types.body.errors).sort()).toEqual(['is_active', 'name', 'sort_order']);
      const [row] = await t.db.query('SELECT name, parent_id FROM categories WHERE id = ?', [ids.category.snacks]);
      expect(row).toMatchObject({ name: 'Snacks', parent_id: null });
    });

    it('answers unknown and hostile ids with 404 and a cashier with 403', async () => {
      expectErrorEnvelope(await api().put('/api/v1/categories/999999').set(bearer(manager)).send({ name: 'Nope' }), 404);
      for (const id of ["1' OR '1'='1", 'abc', '-1', '0'])
        expectErrorEnvelope(
          await api()
            .put(`/api/v1/categories/${encodeURIComponent(id)}`)
            .set(bearer(manager))
            .send({ name: 'Nope' }),
          404,
        );
      expectErrorEnvelope(await api().put(`/api/v1/categories/${ids.category.snacks}`).set(bearer(cashier)).send({ name: 'Cashier Snacks' }), 403);
      const [row] = await t.db.query('SELECT name FROM categories WHERE id = ?', [ids.category.snacks]);
      expect(row.name).toBe('Snacks');
    });
  });

  describe('DELETE /categories/{category}', () => {
    it('refuses (409) while the category has items or subcategories, and changes nothing', async () => {
      const withItems = await api().delete(`/api/v1/categories/${ids.category.electronics}`).set(bearer(manager));
      expectErrorEnvelope(withItems, 409);
      expect(withItems.body.message).toMatch(/items/);
      const withChildren = await api().delete(`/api/v1/categories/${ids.category.beverages}`).set(bearer(manager));
      expectErrorEnvelope(withChildren, 409);
      expect(withChildren.body.message).toMatch(/subcategories/);
      const rows = await t.db.query('SELECT deleted_at FROM categories WHERE id IN (?, ?)', [ids.category.electronics, ids.category.beverages]);
      expect(rows.every((r: { deleted_at: unknown }) => r.deleted_at === null)).toBe(true);
      expect((await api().get(`/api/v1/categories/${ids.category.electronics}`).set(bearer(cashier))).status).toBe(200);
    });

    it('deletes an empty category (then 404 everywhere, gone from lists, tombstoned)', async () => {
      const parent = (await create({ name: 'Short Lived' })).body.data as Cat;
      const child = (await create({ name: 'Short Lived Child', parent_id: parent.id })).body.data as Cat;
      expectErrorEnvelope(await api().delete(`/api/v1/categories/${parent.id}`).set(bearer(manager)), 409);

      expectErrorEnvelope(await api().delete(`/api/v1/categories/${child.id}`).set(bearer(cashier)), 403);
      const del = await api().delete(`/api/v1/categories/${child.id}`).set(bearer(manager));
      expect(del.status).toBe(200);
      expect(del.body).toEqual({ success: true, message: 'Category deleted.' });
      const ok = await api().delete(`/api/v1/categories/${parent.id}`).set(bearer(admin));
      expect(ok.status).toBe(200);
      expect(ok.body.success).toBe(true);

      for (const id of [parent.id, child.id]) {
        expectErrorEnvelope(await api().get(`/api/v1/categories/${id}`).set(bearer(cashier)), 404);
        expectErrorEnvelope(await api().put(`/api/v1/categories/${id}`).set(bearer(manager)).send({ name: 'Back' }), 404);
        expectErrorEnvelope(await api().delete(`/api/v1/categories/${id}`).set(bearer(manager)), 404);
        const tomb = await t.db.query("SELECT entity, entity_id FROM tombstones WHERE entity = 'category' AND entity_id = ?", [id]);
        expect(tomb).toHaveLength(1);
      }
      const list = await api().get('/api/v1/categories?per_page=100').set(bearer(cashier));
      expect(list.body.data.map((c: Cat) => c.name)).not.toContain('Short Lived');
      // The name is free again at that level, and a new child cannot hang under the deleted parent.
      expect((await create({ name: 'Short Lived' })).status).toBe(201);
      const underDeleted = await create({ name: 'Ghost', parent_id: parent.id });
      expect(underDeleted.status).toBe(422);
      expect(underDeleted.body.errors.parent_id).toBeDefined();
    });

    it('answers unknown and hostile ids with 404', async () => {
      expectErrorEnvelope(await api().delete('/api/v1/categories/999999').set(bearer(manager)), 404);
      for (const id of HOSTILE_IDS)
        expectErrorEnvelope(
          await api()
            .delete(`/api/v1/categories/${encodeURIComponent(id)}`)
            .set(bearer(manager)),
          404,
        );
    });

    it('frees a category once its items move away', async () => {
      const cat = (await create({ name: 'Temporary Shelf' })).body.data as Cat;
      const item = await api().post('/api/v1/items').set(bearer(manager)).send({ sku: 'CAT-TMP-1', name: 'Shelf Item', base_price: 1, category_id: cat.id });
      expect(item.status).toBe(201);
      const counted = await api().get(`/api/v1/categories/${cat.id}`).set(bearer(cashier));
      expect(counted.body.data.item_count).toBe(1);
      expectErrorEnvelope(await api().delete(`/api/v1/categories/${cat.id}`).set(bearer(manager)), 409);
      expect((await api().put(`/api/v1/items/${item.body.data.id}`).set(bearer(manager)).send({ category_id: ids.category.household })).status).toBe(200);
      expect((await api().delete(`/api/v1/categories/${cat.id}`).set(bearer(manager))).status).toBe(200);
    });
  });
});
