import { bearer, expectErrorEnvelope, TestApp } from '../support/test-app';
import { DemoIds, LONG } from './catalog-helpers';
import { bootInventory, inventoryTools, Movement } from './inventory-helpers';

/**
 * Inventory (adjustments that move stock, the movement ledger they write, and the ledger invariant).
 * Setup and the helpers are in inventory-helpers.ts.
 */
describe('Inventory', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;
  let managerId: number;

  const { api, adjust, item, expectStock, movementCount, outbox } = inventoryTools(() => ({ t, manager, cashier, ids }));

  beforeAll(async () => {
    ({ t, admin, manager, cashier, ids, managerId } = await bootInventory());
  });
  afterAll(() => t.close());

  describe('POST /inventory/adjustments', () => {
    it('receive adds stock and writes one ledger row per line', async () => {
      const res = await adjust({
        type: 'receive',
        warehouse_id: ids.warehouse.DT,
        reference: 'PO-1001',
        notes: 'Weekly delivery',
        items: [
          { item_id: item('SNK-001'), quantity: 25, unit_cost: 0.9 },
          { item_id: item('SNK-005'), quantity: 5, notes: 'short shipped' },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const d = res.body.data;
      expect(d).toMatchObject({ type: 'receive', warehouse_id: ids.warehouse.DT, to_warehouse_id: null, reference: 'PO-1001' });
      expect(d.adjustment_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(d.movements).toHaveLength(2);
      expect(d.movements[0]).toMatchObject({
        item_id: item('SNK-001'),
        warehouse_id: ids.warehouse.DT,
        type: 'receive',
        quantity: 25,
        balance_after: 75,
        unit_cost: 0.9,
        reference_type: 'adjustment',
        reference_id: d.adjustment_id,
        user_id: managerId,
        notes: 'Weekly delivery',
      });
      expect(d.movements[1]).toMatchObject({ item_id: item('SNK-005'), quantity: 5, balance_after: 55, unit_cost: null, notes: 'short shipped' });

      await expectStock(item('SNK-001'), ids.warehouse.DT, 75);
      await expectStock(item('SNK-005'), ids.warehouse.DT, 55);
      const rows = await t.db.query(
        'SELECT item_id, type, quantity, balance_after, unit_cost, user_id FROM stock_movements WHERE reference_type = ? AND reference_id = ? ORDER BY id',
        ['adjustment', d.adjustment_id],
      );
      expect(rows).toHaveLength(2);
      expect(
        rows.map((r: Record<string, unknown>) => [
          Number(r.item_id),
          r.type,
          Number(r.quantity),
          Number(r.balance_after),
          r.unit_cost === null ? null : Number(r.unit_cost),
          Number(r.user_id),
        ]),
      ).toEqual([
        [item('SNK-001'), 'receive', 25, 75, 90, managerId],
        [item('SNK-005'), 'receive', 5, 55, null, managerId],
      ]);
      // Other warehouses are untouched.
      await expectStock(item('SNK-001'), ids.warehouse.CENTRAL, 200);
      const shown = await api()
        .get(`/api/v1/inventory?item_id=${item('SNK-001')}&warehouse_id=${ids.warehouse.DT}`)
        .set(bearer(cashier));
      expect(shown.body.data[0]).toMatchObject({ quantity: 75, stock_status: 'in_stock' });
    });

    it('count sets the counted quantity (the movement is the difference)', async () => {
      const down = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('GRO-001'), quantity: 42 }] });
      expect(down.status).toBe(201);
      expect(down.body.data.movements).toEqual([expect.objectContaining({ type: 'count', quantity: -8, balance_after: 42 })]);
      await expectStock(item('GRO-001'), ids.warehouse.DT, 42);
      const up = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('GRO-001'), quantity: 60 }] });
      expect(up.body.data.movements[0]).toMatchObject({ quantity: 18, balance_after: 60 });
      await expectStock(item('GRO-001'), ids.warehouse.DT, 60);
      const same = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('GRO-001'), quantity: 60 }] });
      expect(same.status).toBe(201);
      await expectStock(item('GRO-001'), ids.warehouse.DT, 60);
      const zero = await adjust({ type: 'count', warehouse_id: ids.warehouse.CENTRAL, items: [{ item_id: item('GRO-001'), quantity: 0 }] });
      expect(zero.status).toBe(201);
      expect(zero.body.data.movements[0]).toMatchObject({ quantity: -200, balance_after: 0 });
      await expectStock(item('GRO-001'), ids.warehouse.CENTRAL, 0);
      const events = await outbox('inventory.out_of_stock', item('GRO-001'));
      expect(events).toHaveLength(1);
      expect(events[0]).toMatchObject({
        store_id: null,
        payload: { item_id: item('GRO-001'), sku: 'GRO-001', warehouse_id: ids.warehouse.CENTRAL, quantity: 0 },
      });
    });

    it('damage and spoilage remove stock', async () => {
      const damage = await adjust({ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('SNK-002'), quantity: 3 }] });
      expect(damage.status).toBe(201);
      expect(damage.body.data.movements[0]).toMatchObject({ type: 'damage', quantity: -3, balance_after: 47 });
      await expectStock(item('SNK-002'), ids.warehouse.DT, 47);
      const spoil = await adjust({ type: 'spoilage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('GRO-002'), quantity: 2 }] });
      expect(spoil.status).toBe(201);
      expect(spoil.body.data.movements[0]).toMatchObject({ type: 'spoilage', quantity: -2, balance_after: 28, warehouse_id: ids.warehouse.AP });
      await expectStock(item('GRO-002'), ids.warehouse.AP, 28);
      // All of it may go.
      const all = await adjust({ type: 'spoilage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('GRO-002'), quantity: 28 }] });
      expect(all.status).toBe(201);
      await expectStock(item('GRO-002'), ids.warehouse.AP, 0);
    });

    it('transfer moves stock from one warehouse to another with a pair of ledger rows', async () => {
      const res = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.CENTRAL,
        to_warehouse_id: ids.warehouse.AP,
        reference: 'TR-1',
        items: [
          { item_id: item('GRO-003'), quantity: 20 },
          { item_id: item('GRO-004'), quantity: 1 },
        ],
      });
      expect(res.status).toBe(201);
      const d = res.body.data;
      expect(d).toMatchObject({ type: 'transfer', warehouse_id: ids.warehouse.CENTRAL, to_warehouse_id: ids.warehouse.AP, reference: 'TR-1' });
      expect(d.movements.map((m: Movement) => [m.item_id, m.warehouse_id, m.type, m.quantity, m.balance_after])).toEqual([
        [item('GRO-003'), ids.warehouse.CENTRAL, 'transfer_out', -20, 180],
        [item('GRO-003'), ids.warehouse.AP, 'transfer_in', 20, 50],
        [item('GRO-004'), ids.warehouse.CENTRAL, 'transfer_out', -1, 199],
        [item('GRO-004'), ids.warehouse.AP, 'transfer_in', 1, 31],
      ]);
      expect(d.movements.every((m: Movement) => m.reference_id === d.adjustment_id)).toBe(true);
      await expectStock(item('GRO-003'), ids.warehouse.CENTRAL, 180);
      await expectStock(item('GRO-003'), ids.warehouse.AP, 50);
      await expectStock(item('GRO-004'), ids.warehouse.CENTRAL, 199);
      await expectStock(item('GRO-004'), ids.warehouse.AP, 31);
      await expectStock(item('GRO-003'), ids.warehouse.DT, 50);
    });

    it('refuses (409) to remove more than is on hand and changes nothing, even for the valid lines', async () => {
      const before = await movementCount(item('HSE-001'));
      const single = await adjust({ type: 'spoilage', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('HSE-001'), quantity: 51 }] });
      expectErrorEnvelope(single, 409);
      expect(single.body.message).toMatch(/HSE-001/);
      await expectStock(item('HSE-001'), ids.warehouse.DT, 50);

      const multi = await adjust({
        type: 'damage',
        warehouse_id: ids.warehouse.DT,
        items: [
          { item_id: item('HSE-001'), quantity: 5 },
          { item_id: item('HSE-002'), quantity: 1_000_000 },
        ],
      });
      expectErrorEnvelope(multi, 409);
      await expectStock(item('HSE-001'), ids.warehouse.DT, 50);
      await expectStock(item('HSE-002'), ids.warehouse.DT, 50);
      expect(await movementCount(item('HSE-001'))).toBe(before);
      expect(await outbox('inventory.low_stock', item('HSE-001'))).toEqual([]);
    });

    it('moves a transfer all-or-nothing: one short line leaves both warehouses as they were', async () => {
      const res = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.CENTRAL,
        items: [
          { item_id: item('HSE-003'), quantity: 10 },
          { item_id: item('HSE-004'), quantity: 51 },
        ],
      });
      expectErrorEnvelope(res, 409);
      for (const sku of ['HSE-003', 'HSE-004']) {
        await expectStock(item(sku), ids.warehouse.DT, 50);
        await expectStock(item(sku), ids.warehouse.CENTRAL, 200);
      }
      const [{ n }] = await t.db.query("SELECT COUNT(*) AS n FROM stock_movements WHERE type IN ('transfer_out', 'transfer_in') AND item_id IN (?, ?)", [
        item('HSE-003'),
        item('HSE-004'),
      ]);
      expect(Number(n)).toBe(0);
    });

    it('keeps stock exact when the last units are removed by simultaneous requests', async () => {
      const results = await Promise.all(
        [1, 2, 3, 4, 5].map(() => adjust({ type: 'damage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('HSE-005'), quantity: 10 }] })),
      );
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 201, 201, 409, 409]);
      await expectStock(item('HSE-005'), ids.warehouse.AP, 0);
    });

    it('answers a warehouse of another store (source or destination) with 403', async () => {
      const app = await api()
        .post('/api/v1/api-applications')
        .set(bearer(admin))
        .send({ name: 'Downtown stock app', permissions: ['inventory.adjust', 'inventory.view'], store_ids: [ids.store.DT] });
      expect(app.status).toBe(201);
      const tok = await api()
        .post(`/api/v1/api-applications/${app.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'stock', abilities: ['pos'] });
      expect(tok.status).toBe(201);
      const dtOnly = tok.body.data.token as string;

      expectErrorEnvelope(await adjust({ type: 'receive', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-004'), quantity: 5 }] }, dtOnly), 403);
      expectErrorEnvelope(
        await adjust(
          { type: 'transfer', warehouse_id: ids.warehouse.DT, to_warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-004'), quantity: 5 }] },
          dtOnly,
        ),
        403,
      );
      await expectStock(item('BEV-004'), ids.warehouse.AP, 30);
      await expectStock(item('BEV-004'), ids.warehouse.DT, 50);
      // Its own store and the standalone warehouse serving it are fine.
      const ok = await adjust(
        { type: 'transfer', warehouse_id: ids.warehouse.DT, to_warehouse_id: ids.warehouse.CENTRAL, items: [{ item_id: item('BEV-004'), quantity: 5 }] },
        dtOnly,
      );
      expect(ok.status).toBe(201);
      await expectStock(item('BEV-004'), ids.warehouse.DT, 45);
      await expectStock(item('BEV-004'), ids.warehouse.CENTRAL, 205);
    });
  });

  describe('GET /inventory/movements', () => {
    it('lists the ledger newest first, filtered by item, warehouse, type and dates', async () => {
      const res = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-001')}&warehouse_id=${ids.warehouse.DT}`)
        .set(bearer(cashier));
      expect(res.status).toBe(200);
      const rows: Movement[] = res.body.data;
      expect(rows.map((m) => [m.type, m.quantity, m.balance_after])).toEqual([
        ['count', 0, 60],
        ['count', 18, 60],
        ['count', -8, 42],
        ['receive', 50, 50],
      ]);
      expect(rows[0]).toMatchObject({ item_id: item('GRO-001'), warehouse_id: ids.warehouse.DT, reference_type: 'adjustment', user_id: managerId });
      expect(rows[3]).toMatchObject({ reference_type: 'seed', user_id: null });
      expect(res.body.meta.total).toBe(4);

      const byType = await api().get(`/api/v1/inventory/movements?type=transfer_in&per_page=100`).set(bearer(admin));
      expect(byType.body.data.length).toBeGreaterThanOrEqual(3);
      expect(byType.body.data.every((m: Movement) => m.type === 'transfer_in')).toBe(true);
      const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
      // GRO-001: DT seed + 3 counts, AP seed, CENTRAL seed + 1 count.
      const dated = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-001')}&date_from=${day(-1)}&date_to=${day(1)}`)
        .set(bearer(admin));
      expect(dated.body.meta.total).toBe(7);
      const old = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-001')}&date_to=2000-01-01`)
        .set(bearer(admin));
      expect(old.body.data).toEqual([]);
      const future = await api().get(`/api/v1/inventory/movements?date_from=2999-01-01`).set(bearer(admin));
      expect(future.body.meta.total).toBe(0);
    });

    it('shows a store user only the movements of warehouses serving their stores', async () => {
      const res = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-003')}`)
        .set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(new Set(res.body.data.map((m: Movement) => m.warehouse_id))).toEqual(new Set([ids.warehouse.DT, ids.warehouse.CENTRAL]));
      const asManager = await api()
        .get(`/api/v1/inventory/movements?item_id=${item('GRO-003')}`)
        .set(bearer(manager));
      expect(asManager.body.data.some((m: Movement) => m.warehouse_id === ids.warehouse.AP)).toBe(true);
    });

    it('paginates (max 200) and validates its filters (422)', async () => {
      const p = await api().get('/api/v1/inventory/movements?per_page=5000').set(bearer(admin));
      expect(p.body.meta.per_page).toBe(200);
      const p2 = await api().get('/api/v1/inventory/movements?per_page=2&page=2').set(bearer(admin));
      expect(p2.body.meta).toMatchObject({ current_page: 2, per_page: 2 });
      expect(p2.body.data).toHaveLength(2);
      for (const bad of [
        'date_from=yesterday',
        'date_to=2024-13-45',
        'item_id=abc',
        'warehouse_id=0',
        `type=${LONG}`,
        'per_page=0',
        `item_id=${encodeURIComponent("1' OR '1'='1")}`,
      ]) {
        const res = await api().get(`/api/v1/inventory/movements?${bad}`).set(bearer(admin));
        expectErrorEnvelope(res, 422);
        expect(Object.keys(res.body.errors)).toEqual([bad.split('=')[0]]);
      }
      const sqlType = await api()
        .get(`/api/v1/inventory/movements?type=${encodeURIComponent("x' OR '1'='1")}`)
        .set(bearer(admin));
      expect(sqlType.status).toBe(200);
      expect(sqlType.body.data).toEqual([]);
    });
  });

  describe('ledger invariant', () => {
    it('keeps every stock level equal to the sum of its movements', async () => {
      const rows = await t.db.query(
        'SELECT s.item_id, s.warehouse_id, s.quantity, (SELECT COALESCE(SUM(m.quantity), 0) FROM stock_movements m WHERE m.item_id = s.item_id AND m.warehouse_id = s.warehouse_id) AS ledger FROM stock_levels s',
      );
      expect(rows.length).toBeGreaterThanOrEqual(96);
      const mismatched = rows.filter((r: { quantity: unknown; ledger: unknown }) => Number(r.quantity) !== Number(r.ledger));
      expect(mismatched).toEqual([]);
      const balances = await t.db.query(
        'SELECT m.item_id, m.warehouse_id, m.balance_after, s.quantity FROM stock_movements m JOIN stock_levels s ON s.item_id = m.item_id AND s.warehouse_id = m.warehouse_id WHERE m.id = (SELECT MAX(m2.id) FROM stock_movements m2 WHERE m2.item_id = m.item_id AND m2.warehouse_id = m.warehouse_id)',
      );
      expect(balances.filter((r: { balance_after: unknown; quantity: unknown }) => Number(r.balance_after) !== Number(r.quantity))).toEqual([]);
    });
  });
});
