import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 26: change mode of the inventory, stores and warehouses feeds (`updated_since` once, then
 * `meta.next_cursor`). CHANGE_FEED_SETTLE_SECONDS=5 (real writes run: the transaction age bound is
 * derived from it); a change is served once the horizon has passed it, which the tests wait for
 * by polling a bounded number of times (never by asserting a duration).
 */
const SETTLE = 5;
const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

interface Row {
  id: number;
  updated_at: string;
  [k: string]: unknown;
}

describe('Integration feeds: change mode of inventory, stores and warehouses', () => {
  let t: TestApp;
  let cashier: string;
  let manager: string;
  let partner: string;
  let cola: number;
  let warehouseId: number;
  let levelId: number;
  let start: string;
  const api = () => request(t.http);
  let n = 0;
  const sell = async () => {
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: `stock-feed-${++n}`,
        items: [{ id: cola, qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 2 }],
        total_amount: 1.94,
      });
    if (res.status !== 201) throw new Error(`checkout ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data as { id: number };
  };
  const get = (path: string, query: Record<string, string | number>) => api().get(`/api/v1/integration${path}`).query(query).set(bearer(partner));

  /** One poll of a feed: pages from `position` until has_more is false; returns the rows and the cursor to go on from. */
  async function poll(path: string, position: Record<string, string>, perPage = 2): Promise<{ rows: Row[]; cursor: string }> {
    const rows: Row[] = [];
    let query: Record<string, string | number> = { ...position, per_page: perPage };
    for (let pages = 0; pages < 500; pages++) {
      const res = await get(path, query);
      if (res.status !== 200) throw new Error(`${path} ${JSON.stringify(query)}: ${res.status} ${JSON.stringify(res.body)}`);
      expect(Object.keys(res.body.meta).sort()).toEqual(['has_more', 'next_cursor', 'per_page']);
      expect(res.body.data.length).toBeLessThanOrEqual(perPage);
      if (res.body.meta.has_more) expect(res.body.data).toHaveLength(perPage);
      rows.push(...(res.body.data as Row[]));
      if (!res.body.meta.has_more) return { rows, cursor: res.body.meta.next_cursor as string };
      query = { cursor: res.body.meta.next_cursor as string, per_page: perPage };
    }
    throw new Error('runaway paging');
  }

  /** Polls (bounded) from a position until `done(rows served since)`, following the cursor; every row served, in order. */
  async function pollUntil(path: string, position: Record<string, string>, done: (rows: Row[]) => boolean): Promise<{ rows: Row[]; cursor: string }> {
    const all: Row[] = [];
    for (let i = 0; i < 120; i++) {
      const p = await poll(path, position);
      all.push(...p.rows);
      position = { cursor: p.cursor };
      if (done(all)) return { rows: all, cursor: p.cursor };
      await sleep(250);
    }
    throw new Error(`${path}: change not served`);
  }

  const inChangeOrder = (rows: Row[]) =>
    rows.every((r, i) => {
      if (i === 0) return true;
      const [a, b] = [Date.parse(rows[i - 1].updated_at), Date.parse(r.updated_at)];
      return a < b || (a === b && rows[i - 1].id < r.id);
    });
  const ofId = (rows: Row[], id: number) => rows.filter((r) => r.id === id);
  const quantityOf = async (id: number) => Number((await t.db.query('SELECT quantity FROM stock_levels WHERE id = ?', [id]))[0].quantity);

  beforeAll(async () => {
    t = await startTestApp({ CHANGE_FEED_SETTLE_SECONDS: String(SETTLE) });
    cashier = await login(t, DEMO.cashier);
    manager = await login(t, DEMO.manager);
    partner = (await integrationToken(t, ['inventory.view', 'stores.view', 'warehouses.view', 'items.view'])).token;
    cola = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-003'"))[0].id);
    warehouseId = Number((await t.db.query('SELECT default_warehouse_id AS w FROM stores WHERE id = 1'))[0].w);
    levelId = Number((await t.db.query('SELECT id FROM stock_levels WHERE item_id = ? AND warehouse_id = ?', [cola, warehouseId]))[0].id);
    await api().post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
    // the partner starts a whole second after the seed (MySQL keeps whole seconds)
    await sleep(1100);
    start = new Date(Math.floor(Date.now() / 1000) * 1000).toISOString();
    await sleep(1100);
  });
  afterAll(() => t?.close());

  it('a sale and an adjustment each bring the stock level once into the next poll; the horizon holds it back until then', async () => {
    // nothing changed since start: empty, and the cursor echoes the position
    const idle = await get('/data/inventory', { updated_since: start });
    expect(idle.status).toBe(200);
    expect(idle.body.data).toEqual([]);
    expect(idle.body.meta).toMatchObject({ per_page: 50, has_more: false, next_cursor: expect.any(String) });
    let cursor = idle.body.meta.next_cursor as string;

    await sell();
    // at once: the change is newer than the horizon, so it is held back
    const held = await poll('/data/inventory', { cursor });
    expect(ofId(held.rows, levelId)).toEqual([]);
    const sold = await pollUntil('/data/inventory', { cursor }, (rows) => ofId(rows, levelId).length > 0);
    expect(ofId(sold.rows, levelId)).toEqual([
      expect.objectContaining({
        item: expect.objectContaining({ id: cola }),
        warehouse: expect.objectContaining({ id: warehouseId }),
        quantity: await quantityOf(levelId),
      }),
    ]);
    expect(inChangeOrder(sold.rows)).toBe(true);
    cursor = sold.cursor;
    // nothing new: the next poll is empty and echoes its position
    expect((await poll('/data/inventory', { cursor })).rows).toEqual([]);

    const received = await api()
      .post('/api/v1/inventory/adjustments')
      .set(bearer(manager))
      .send({ type: 'receive', warehouse_id: warehouseId, reference: 'FEED-1', items: [{ item_id: cola, quantity: 7 }] });
    expect(received.status).toBe(201);
    const after = await pollUntil('/data/inventory', { cursor }, (rows) => ofId(rows, levelId).length > 0);
    expect(ofId(after.rows, levelId)).toEqual([expect.objectContaining({ quantity: await quantityOf(levelId), updated_at: expect.any(String) })]);
    expect(Date.parse(ofId(after.rows, levelId)[0].updated_at)).toBeGreaterThan(Date.parse(ofId(sold.rows, levelId)[0].updated_at));

    // from start again: the level once (its latest version), and filters still apply
    const again = await poll('/data/inventory', { updated_since: start });
    expect(ofId(again.rows, levelId)).toHaveLength(1);
    expect((await poll('/data/inventory', { updated_since: start, warehouse_id: String(warehouseId), item_id: String(cola) })).rows.map((r) => r.id)).toEqual([
      levelId,
    ]);
    expect((await poll('/data/inventory', { updated_since: start, item_id: String(cola + 100000) })).rows).toEqual([]);

    // without change mode the feed answers as before, its rows now naming the level
    const listed = await get('/data/inventory', { item_id: cola, warehouse_id: warehouseId });
    expect(listed.status).toBe(200);
    expect(listed.body.meta).not.toHaveProperty('next_cursor');
    expect(listed.body.meta).toHaveProperty('total', 1);
    expect(listed.body.data[0]).toMatchObject({ id: levelId, updated_at: expect.any(String) });
  });

  it('a store and a warehouse update each show once in the next poll', async () => {
    const stores = await pollUntil('/data/stores', { updated_since: start }, () => true);
    const warehouses = await pollUntil('/data/warehouses', { updated_since: start }, () => true);
    expect(stores.rows).toEqual([]);
    expect(warehouses.rows).toEqual([]);

    // stores and warehouses are written outside the API (set-up, seeds): through the entity as they are
    await t.db.getRepository('stores').update(1, { phone: '+1 555 0199', updatedAt: new Date() });
    await t.db.getRepository('warehouses').update(warehouseId, { isActive: false, updatedAt: new Date() });
    const heldStores = await poll('/data/stores', { cursor: stores.cursor });
    expect(heldStores.rows).toEqual([]);

    const storeRows = await pollUntil('/data/stores', { cursor: stores.cursor }, (rows) => rows.length > 0);
    expect(storeRows.rows).toEqual([expect.objectContaining({ id: 1, phone: '+1 555 0199', updated_at: expect.any(String) })]);
    expect((await poll('/data/stores', { cursor: storeRows.cursor })).rows).toEqual([]);

    // a deactivated warehouse is served in change mode, so a partner learns of it
    const whRows = await pollUntil('/data/warehouses', { cursor: warehouses.cursor }, (rows) => rows.length > 0);
    expect(whRows.rows).toEqual([expect.objectContaining({ id: warehouseId, is_active: false, updated_at: expect.any(String) })]);
    expect((await poll('/data/warehouses', { cursor: whRows.cursor })).rows).toEqual([]);
    await t.db.getRepository('warehouses').update(warehouseId, { isActive: true, updatedAt: new Date() });

    // without change mode: as before (page meta, active warehouses only)
    const listed = await get('/data/stores', {});
    expect(listed.status).toBe(200);
    expect(listed.body.meta).not.toHaveProperty('next_cursor');
    expect(listed.body.data[0]).toMatchObject({ id: 1, updated_at: expect.any(String) });
  });

  describe('bad input', () => {
    it('refuses another feed’s cursor, a malformed one, both parameters and a bad date with 422', async () => {
      const cursorOf = async (path: string) => (await get(path, { updated_since: start })).body.meta.next_cursor as string;
      const [inventory, stores, warehouses, items] = await Promise.all(['/data/inventory', '/data/stores', '/data/warehouses', '/data/items'].map(cursorOf));
      for (const [path, query, field] of [
        ['/data/inventory', { cursor: stores }, 'cursor'],
        ['/data/inventory', { cursor: items }, 'cursor'],
        ['/data/stores', { cursor: warehouses }, 'cursor'],
        ['/data/warehouses', { cursor: inventory }, 'cursor'],
        ['/data/items', { cursor: inventory }, 'cursor'],
        ['/data/inventory', { cursor: 'not-a-cursor' }, 'cursor'],
        ['/data/stores', { cursor: 'abc$' }, 'cursor'],
        ['/data/warehouses', { cursor: warehouses, updated_since: start }, 'updated_since'],
        ['/data/inventory', { updated_since: '2026-11-26' }, 'updated_since'],
        ['/data/stores', { updated_since: 'yesterday' }, 'updated_since'],
      ] as const) {
        const res = await get(path, query);
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toContain(field);
      }
      // each cursor works on its own feed and on its alias
      expect((await get('/data/inventory', { cursor: inventory })).status).toBe(200);
      expect((await api().get('/api/v1/integrations/data/warehouses').query({ cursor: warehouses }).set(bearer(partner))).status).toBe(200);
    });

    it('still refuses unknown query parameters with 422', async () => {
      for (const path of ['/data/inventory', '/data/stores', '/data/warehouses']) {
        const res = await get(path, { updated_sinse: start });
        expectErrorEnvelope(res, 422);
        expect(res.body.errors).toEqual({ updated_sinse: ['Unknown query parameter.'] });
      }
    });
  });
});
