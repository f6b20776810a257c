import request from 'supertest';
import { setTimeout as sleep } from 'node:timers/promises';
import { UserAdminService } from '@pos/identity';
import { BulkPriceService } from '@pos/pricing';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from '../catalog/catalog-helpers';

/**
 * Pricing rules, bundles and bulk price-book changes by store (decisions: "a user sees and acts
 * only on the stores assigned to them"; design.md, StoreScopePolicy). A user limited to some
 * stores sees what applies in one of them (and what applies everywhere), gets 404 for another
 * store's rule or bundle, 403 for a body naming another store (or every store), 403 for changing
 * what also applies elsewhere; a refused request changes nothing. The demo manager has both demo
 * stores, that is every store, and is not limited.
 */
describe('Pricing by store: rules, bundles and bulk prices of other stores', () => {
  let t: TestApp;
  let ids: DemoIds;
  let admin: string;
  let manager: string;
  let dtManager: string;
  let apManager: string;
  let cashier: string;
  const api = () => request(t.http);
  const q = async (sql: string, params: unknown[] = []) => (await t.db.query(sql, params)) as Record<string, unknown>[];
  const n = async (sql: string, params: unknown[] = []) => Number((await q(sql, params))[0].n);

  const rule = (body: Record<string, unknown>, token: string) => api().post('/api/v1/pricing-rules').set(bearer(token)).send(body);
  const ruleRow = async (id: number) =>
    (await q('SELECT name, value, is_active, deleted_at, version FROM pricing_rules WHERE id = ?', [id]))[0] as Record<string, unknown>;
  const ruleCount = () => n('SELECT COUNT(*) AS n FROM pricing_rules WHERE deleted_at IS NULL');
  const adminRule = async (name: string, storeIds: number[]) => {
    const res = await rule({ name, kind: 'percent_off', percent_off: 10, store_ids: storeIds }, admin);
    expect(res.status).toBe(200);
    return Number(res.body.data.id);
  };
  /** The unit price of crisps in a store, as the till prices it. */
  const crisps = async (storeId: number) =>
    (
      await api()
        .post('/api/v1/pricing/cart')
        .set(bearer(admin))
        .send({ store_id: storeId, items: [{ id: ids.item['SNK-001'], qty: 1 }] })
    ).body.data.items[0].unit_price as number;

  const bundleBody = (code: string, storeIds?: number[]) => ({
    name: code,
    code,
    price: 3,
    ...(storeIds ? { store_ids: storeIds } : {}),
    items: [{ item_id: ids.item['SNK-001'], quantity: 2 }],
  });
  const bundle = (body: Record<string, unknown>, token: string) => api().post('/api/v1/bundles').set(bearer(token)).send(body);
  const bundleRow = async (id: number) =>
    (await q('SELECT price, is_active, store_ids, deleted_at FROM bundles WHERE id = ?', [id]))[0] as Record<string, unknown>;
  const bundleCount = () => n('SELECT COUNT(*) AS n FROM bundles WHERE deleted_at IS NULL');

  const bulk = (changes: Record<string, unknown>[], token: string) => api().post('/api/v1/prices/bulk').set(bearer(token)).send({ changes });
  const jobs = () => n('SELECT COUNT(*) AS n FROM bulk_price_jobs');
  const book = async (code: string) => Number((await q('SELECT id FROM price_books WHERE code = ?', [code]))[0].id);
  const entry = async (bookId: number, sku: string) =>
    Number((await q('SELECT price FROM price_book_entries WHERE price_book_id = ? AND item_id = ? AND min_quantity = 1', [bookId, ids.item[sku]]))[0].price);
  const basePrice = async (sku: string) => Number((await q('SELECT base_price FROM items WHERE id = ?', [ids.item[sku]]))[0].base_price);
  /**
   * Runs a job to its end: with Redis (the MySQL runs) the queue has no consumer in the API
   * process, so the job runs here; in-process (SQLite), its status is polled a bounded number of times.
   */
  const completed = async (jobId: number, token: string) => {
    if (t.isMysql) await t.app.get(BulkPriceService).run({ jobId });
    for (let i = 0; i < 200; i++) {
      const s = (await api().get(`/api/v1/prices/bulk/${jobId}`).set(bearer(token))).body.data;
      if (s.status === 'completed' || s.status === 'failed') return s.status as string;
      await sleep(50);
    }
    return 'still running';
  };

  beforeAll(async () => {
    t = await startTestApp();
    ids = await demoIds(t);
    const users = t.app.get(UserAdminService);
    await users.createUser({ name: 'Downtown Manager', email: 'dt.manager@example.com', password: DEMO.password, role: 'manager', storeIds: [ids.store.DT] });
    await users.createUser({ name: 'Airport Manager', email: 'ap.manager@example.com', password: DEMO.password, role: 'manager', storeIds: [ids.store.AP] });
    [admin, manager, cashier, dtManager, apManager] = await Promise.all([
      login(t, DEMO.admin),
      login(t, DEMO.manager),
      login(t, DEMO.cashier),
      login(t, 'dt.manager@example.com'),
      login(t, 'ap.manager@example.com'),
    ]);
  });
  afterAll(() => t.close());

  describe('pricing rules', () => {
    it('refuses a rule for another store (or for every store) from a manager of one store: 403, no rule, prices unchanged', async () => {
      const before = { rules: await ruleCount(), dt: await crisps(ids.store.DT) };
      for (const storeIds of [[ids.store.DT], [ids.store.DT, ids.store.AP], undefined]) {
        const res = await rule({ name: 'evil', kind: 'percent_off', percent_off: 50, ...(storeIds ? { store_ids: storeIds } : {}) }, apManager);
        expectErrorEnvelope(res, 403);
        expect(res.body.code).toBe('store_forbidden');
      }
      expect({ rules: await ruleCount(), dt: await crisps(ids.store.DT) }).toEqual(before);
      // Their own store: allowed; every store: allowed to a manager with every store.
      expect((await rule({ name: 'airport 5%', kind: 'percent_off', percent_off: 5, store_ids: [ids.store.AP] }, apManager)).status).toBe(200);
      expect((await rule({ name: 'chain 1%', kind: 'percent_off', percent_off: 1 }, manager)).status).toBe(200);
    });

    it("another store's rule is 404 to read, update, toggle and delete, and stays as it was", async () => {
      const id = await adminRule('airport only', [ids.store.AP]);
      const before = await ruleRow(id);
      expectErrorEnvelope(await api().get(`/api/v1/pricing-rules/${id}`).set(bearer(cashier)), 404, 'Pricing rule not found.');
      expectErrorEnvelope(await api().get(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)), 404);
      expectErrorEnvelope(await api().put(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)).send({ percent_off: 95, is_active: true }), 404);
      // An If-Match on it tells nothing either (404, not 412).
      expectErrorEnvelope(await api().put(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)).set('If-Match', '"v999"').send({ percent_off: 95 }), 404);
      expectErrorEnvelope(await api().post(`/api/v1/pricing-rules/${id}/toggle`).set(bearer(dtManager)), 404);
      expectErrorEnvelope(await api().delete(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)), 404);
      expect(await ruleRow(id)).toEqual(before);
      // Lists: the unfiltered list and the rules in force leave it out for the store-1 cashier, not for the admin.
      const listed = async (path: string, token: string) => ((await api().get(path).set(bearer(token))).body.data as { id: number }[]).map((r) => r.id);
      expect(await listed('/api/v1/pricing-rules?per_page=100', cashier)).not.toContain(id);
      expect(await listed('/api/v1/pricing/rules', cashier)).not.toContain(id);
      expect(await listed('/api/v1/pricing-rules?per_page=100', admin)).toContain(id);
      expect(await listed('/api/v1/pricing-rules?per_page=100', apManager)).toContain(id);
    });

    it('a rule that also applies in another store, or in every store, is seen but 403 to change', async () => {
      for (const storeIds of [[ids.store.DT, ids.store.AP], []]) {
        const id = await adminRule(`shared ${storeIds.length}`, storeIds);
        const before = await ruleRow(id);
        expect((await api().get(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager))).status).toBe(200);
        expectErrorEnvelope(await api().put(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)).send({ percent_off: 95 }), 403);
        // Narrowing it to their own store is a change of the other store's rule too.
        expectErrorEnvelope(
          await api()
            .put(`/api/v1/pricing-rules/${id}`)
            .set(bearer(dtManager))
            .send({ store_ids: [ids.store.DT] }),
          403,
        );
        expectErrorEnvelope(await api().post(`/api/v1/pricing-rules/${id}/toggle`).set(bearer(dtManager)), 403);
        expectErrorEnvelope(await api().delete(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)), 403);
        expect(await ruleRow(id)).toEqual(before);
        expect((await api().put(`/api/v1/pricing-rules/${id}`).set(bearer(manager)).send({ percent_off: 11 })).status).toBe(200);
      }
    });

    it("a manager changes their own store's rule, but cannot move it to another store", async () => {
      const created = await rule({ name: 'downtown 5%', kind: 'percent_off', percent_off: 5, store_ids: [ids.store.DT] }, dtManager);
      expect(created.status).toBe(200);
      const id = Number(created.body.data.id);
      expect((await api().put(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)).send({ percent_off: 6 })).status).toBe(200);
      const before = await ruleRow(id);
      for (const storeIds of [[ids.store.DT, ids.store.AP], [ids.store.AP], []])
        expectErrorEnvelope(await api().put(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager)).send({ store_ids: storeIds, percent_off: 90 }), 403);
      expect(await ruleRow(id)).toEqual(before);
      expect((await api().post(`/api/v1/pricing-rules/${id}/toggle`).set(bearer(dtManager))).status).toBe(200);
      expect((await api().delete(`/api/v1/pricing-rules/${id}`).set(bearer(dtManager))).status).toBe(200);
    });
  });

  describe('bundles', () => {
    it("another store's bundle is 404 to update and delete, even naming the caller's own store, and stays as it was", async () => {
      const res = await bundle(bundleBody('DT-ONLY', [ids.store.DT]), admin);
      expect(res.status).toBe(201);
      const id = Number(res.body.data.id);
      const before = await bundleRow(id);
      expectErrorEnvelope(await api().get(`/api/v1/bundles/${id}`).set(bearer(apManager)), 404, 'Bundle not found.');
      expectErrorEnvelope(await api().put(`/api/v1/bundles/${id}`).set(bearer(apManager)).send({ price: 0.01 }), 404);
      expectErrorEnvelope(
        await api()
          .put(`/api/v1/bundles/${id}`)
          .set(bearer(apManager))
          .send({ store_ids: [ids.store.DT, ids.store.AP], price: 0.01 }),
        404,
      );
      expectErrorEnvelope(await api().delete(`/api/v1/bundles/${id}`).set(bearer(apManager)), 404);
      expect(await bundleRow(id)).toEqual(before);
      // nor read through the calculator: its price and items are another store's
      const calculated = await api().post('/api/v1/bundles/calculate').set(bearer(apManager)).send({ bundle_id: id });
      expectErrorEnvelope(calculated, 422);
      expect(calculated.body.errors.bundle_id).toEqual(['The selected bundle does not exist.']);
      expect((await api().post('/api/v1/bundles/calculate').set(bearer(admin)).send({ bundle_id: id })).status).toBe(201);
    });

    it('creating a bundle for another store, or for every store, is 403 (not 404) and creates nothing', async () => {
      const before = await bundleCount();
      for (const storeIds of [[ids.store.DT], [ids.store.DT, ids.store.AP], undefined])
        expectErrorEnvelope(await bundle(bundleBody(`AP-EVIL-${storeIds?.length ?? 0}`, storeIds), apManager), 403);
      expect(await bundleCount()).toBe(before);
      expect((await bundle(bundleBody('AP-OWN', [ids.store.AP]), apManager)).status).toBe(201);
      expect((await bundle(bundleBody('CHAIN'), manager)).status).toBe(201);
    });

    it("a bundle also sold in another store is seen but 403 to change; the own store's is changed", async () => {
      const shared = Number((await bundle(bundleBody('SHARED', [ids.store.DT, ids.store.AP]), admin)).body.data.id);
      const before = await bundleRow(shared);
      expect((await api().get(`/api/v1/bundles/${shared}`).set(bearer(dtManager))).status).toBe(200);
      expectErrorEnvelope(await api().put(`/api/v1/bundles/${shared}`).set(bearer(dtManager)).send({ price: 0.01 }), 403);
      expectErrorEnvelope(await api().delete(`/api/v1/bundles/${shared}`).set(bearer(dtManager)), 403);
      expect(await bundleRow(shared)).toEqual(before);
      const own = Number((await bundle(bundleBody('DT-OWN', [ids.store.DT]), dtManager)).body.data.id);
      expectErrorEnvelope(await api().put(`/api/v1/bundles/${own}`).set(bearer(dtManager)).send({ store_ids: [] }), 403);
      expect((await api().put(`/api/v1/bundles/${own}`).set(bearer(dtManager)).send({ price: 2.5 })).body.data.price).toBe(2.5);
      expect((await api().delete(`/api/v1/bundles/${own}`).set(bearer(dtManager))).status).toBe(200);
    });
  });

  describe('POST /prices/bulk', () => {
    it("refuses a row naming another store's price book as an unknown one: 422 on the row, no job, nothing changed", async () => {
      const airport = await book('AIRPORT');
      const before = { jobs: await jobs(), entry: await entry(airport, 'BEV-001'), base: await basePrice('SNK-001') };
      expectErrorEnvelope(await api().get(`/api/v1/price-books/${airport}`).set(bearer(dtManager)), 404);
      const res = await bulk(
        [
          { item_id: ids.item['SNK-001'], price: 0.02 },
          { item_id: ids.item['BEV-001'], price_book_id: airport, price: 0.01 },
        ],
        dtManager,
      );
      expectErrorEnvelope(res, 422);
      expect(res.body.errors).toEqual({ 'changes.1.price_book_id': ['The selected price book does not exist.'] });
      expect({ jobs: await jobs(), entry: await entry(airport, 'BEV-001'), base: await basePrice('SNK-001') }).toEqual(before);
    });

    it('refuses a price book that also applies in other stores (here every store) with 403; the manager with every store changes it', async () => {
      const members = await book('MEMBERS');
      const before = { jobs: await jobs(), entry: await entry(members, 'COF-001') };
      const res = await bulk([{ item_id: ids.item['COF-001'], price_book_id: members, price: 0.01 }], dtManager);
      expectErrorEnvelope(res, 403);
      expect({ jobs: await jobs(), entry: await entry(members, 'COF-001') }).toEqual(before);
      const ok = await bulk([{ item_id: ids.item['COF-001'], price_book_id: members, price: 7.5 }], manager);
      expect(ok.status).toBe(200);
      expect(await completed(ok.body.data.job_id, manager)).toBe('completed');
      expect(await entry(members, 'COF-001')).toBe(750);
    });

    it("keeps base prices (the chain-wide catalog's) open to a manager of one store, and another store's book to its own manager", async () => {
      const airport = await book('AIRPORT');
      const res = await bulk(
        [
          { item_id: ids.item['SNK-002'], price: 2.05 },
          { item_id: ids.item['BEV-003'], price_book_id: airport, price: 3.15 },
        ],
        apManager,
      );
      expect(res.status).toBe(200);
      expect(await completed(res.body.data.job_id, apManager)).toBe('completed');
      expect({ base: await basePrice('SNK-002'), entry: await entry(airport, 'BEV-003') }).toEqual({ base: 205, entry: 315 });
    });
  });
});
