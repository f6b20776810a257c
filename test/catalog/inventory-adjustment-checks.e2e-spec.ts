import { StoreContext } from '@pos/catalog';
import { bearer, expectErrorEnvelope, TestApp } from '../support/test-app';
import { DemoIds, expectNo5xx, LONG } from './catalog-helpers';
import { bootInventory, InventoryRow, inventoryTools } from './inventory-helpers';

/**
 * Inventory (what adjustments refuse (validation, permissions, negative stock, hostile input) and
 * serial-tracked items). Setup and the helpers are in inventory-helpers.ts.
 */
describe('Inventory', () => {
  let t: TestApp;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const { api, adjust, inventory, item, expectStock, serial } = inventoryTools(() => ({ t, manager, cashier, ids }));

  beforeAll(async () => {
    ({ t, manager, cashier, ids } = await bootInventory());
  });
  afterAll(() => t.close());

  describe('POST /inventory/adjustments', () => {
    it('validates transfers: a destination is required, must differ and must exist', async () => {
      const missing = await adjust({ type: 'transfer', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('HSE-003'), quantity: 1 }] });
      expectErrorEnvelope(missing, 422, 'The given data was invalid.');
      expect(Object.keys(missing.body.errors)).toEqual(['to_warehouse_id']);
      const same = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('HSE-003'), quantity: 1 }],
      });
      expect(same.status).toBe(422);
      expect(same.body.errors.to_warehouse_id).toBeDefined();
      const unknown = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: 999999,
        items: [{ item_id: item('HSE-003'), quantity: 1 }],
      });
      expect(unknown.status).toBe(422);
      expect(unknown.body.errors.to_warehouse_id).toBeDefined();
      await expectStock(item('HSE-003'), ids.warehouse.DT, 50);
    });

    it('validates the body (422 with dotted keys) and writes nothing', async () => {
      const before = Number((await t.db.query('SELECT COUNT(*) AS n FROM stock_movements'))[0].n);
      const cases: [Record<string, unknown>, string[]][] = [
        [{}, ['items', 'type', 'warehouse_id']],
        [{ type: 'steal', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1 }] }, ['type']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [] }, ['items']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: 'all of them' }, ['items']],
        [{ type: 'receive', warehouse_id: 'DT', items: [{ item_id: item('BEV-002'), quantity: 1 }] }, ['warehouse_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: -1 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 'ten' }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1.5 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1_000_001 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1e308 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002') }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1 }, { quantity: 1 }] }, ['items.1.item_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 0 }] }, ['items.0.quantity']],
        [{ type: 'damage', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 0 }] }, ['items.0.quantity']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, unit_cost: -1 }] }, ['items.0.unit_cost']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, unit_cost: 0.001 }] }, ['items.0.unit_cost']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, notes: LONG }] }, ['items.0.notes']],
        [
          { type: 'receive', warehouse_id: ids.warehouse.DT, reference: LONG, notes: LONG, items: [{ item_id: item('BEV-002'), quantity: 1 }] },
          ['notes', 'reference'],
        ],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: 999999, quantity: 1 }] }, ['items.0.item_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: "1' OR '1'='1", quantity: 1 }] }, ['items.0.item_id']],
        [
          {
            type: 'receive',
            warehouse_id: ids.warehouse.DT,
            items: [
              { item_id: item('BEV-002'), quantity: 1 },
              { item_id: item('BEV-002'), quantity: 2 },
            ],
          },
          ['items.1.item_id'],
        ],
        [
          { type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-002'), quantity: 1, serial_numbers: ['X-1'] }] },
          ['items.0.serial_numbers'],
        ],
        [{ type: 'receive', warehouse_id: 999999, items: [{ item_id: item('BEV-002'), quantity: 1 }] }, ['warehouse_id']],
        [{ type: 'receive', warehouse_id: ids.warehouse.DT, items: Array.from({ length: 501 }, () => ({ item_id: item('BEV-002'), quantity: 1 })) }, ['items']],
      ];
      for (const [body, keys] of cases) {
        const res = await adjust(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect({ body: JSON.stringify(body).slice(0, 120), keys: Object.keys(res.body.errors).sort() }).toEqual({
          body: JSON.stringify(body).slice(0, 120),
          keys,
        });
      }
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM stock_movements'))[0].n)).toBe(before);
      await expectStock(item('BEV-002'), ids.warehouse.DT, 50);
    });

    it('needs inventory.adjust (403 for a cashier), with nothing changed', async () => {
      const res = await adjust({ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-004'), quantity: 5 }] }, cashier);
      expectErrorEnvelope(res, 403);
      await expectStock(item('BEV-004'), ids.warehouse.DT, 50);
      expectErrorEnvelope(
        await api()
          .post('/api/v1/inventory/adjustments')
          .send({ type: 'receive', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('BEV-004'), quantity: 5 }] }),
        401,
      );
    });

    it('lets stock go negative only where the store allows it (never in a standalone warehouse)', async () => {
      await t.db.query('UPDATE stores SET allow_negative_stock = ? WHERE id = ?', [1, ids.store.AP]);
      t.app.get(StoreContext).invalidate(); // edited behind the API's back: forget the cached store
      try {
        const res = await adjust({ type: 'damage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-005'), quantity: 40 }] });
        expect(res.status).toBe(201);
        expect(res.body.data.movements[0]).toMatchObject({ quantity: -40, balance_after: -10 });
        await expectStock(item('BEV-005'), ids.warehouse.AP, -10);
        const row = await inventory(`?item_id=${item('BEV-005')}&stock_status=out`, manager);
        expect(row.body.data.map((r: InventoryRow) => [r.warehouse.id, r.quantity])).toEqual([[ids.warehouse.AP, -10]]);
        const central = await adjust({ type: 'damage', warehouse_id: ids.warehouse.CENTRAL, items: [{ item_id: item('BEV-005'), quantity: 201 }] });
        expectErrorEnvelope(central, 409);
        await expectStock(item('BEV-005'), ids.warehouse.CENTRAL, 200);
      } finally {
        await t.db.query('UPDATE stores SET allow_negative_stock = ? WHERE id = ?', [0, ids.store.AP]);
        t.app.get(StoreContext).invalidate();
      }
      expectErrorEnvelope(await adjust({ type: 'damage', warehouse_id: ids.warehouse.AP, items: [{ item_id: item('BEV-005'), quantity: 1 }] }), 409);
      await expectStock(item('BEV-005'), ids.warehouse.AP, -10);
    });

    it('never answers hostile values with a 5xx', async () => {
      const bodies: unknown[] = [
        { type: 'receive', warehouse_id: "1' OR '1'='1", items: [{ item_id: 1, quantity: 1 }] },
        { type: LONG, warehouse_id: 1, items: [{ item_id: 1, quantity: 1 }] },
        { type: 'receive', warehouse_id: 1e20, items: [{ item_id: 1e20, quantity: 1 }] },
        { type: 'receive', warehouse_id: -1, items: [{ item_id: -1, quantity: -1e20 }] },
        { type: 'receive', warehouse_id: 1, items: [null, 'x', 3] },
        { type: 'receive', warehouse_id: 1, items: [{ item_id: 1, quantity: 1, serial_numbers: [LONG, '', 5] }] },
        { type: ['receive'], warehouse_id: [1], items: [[{ item_id: 1 }]] },
        { type: 'receive', warehouse_id: { $gt: 0 }, items: [{ item_id: { $ne: null }, quantity: 1 }] },
      ];
      for (const body of bodies)
        expectNo5xx(
          await api()
            .post('/api/v1/inventory/adjustments')
            .set(bearer(manager))
            .send(body as object),
          [422],
        );
      expectNo5xx(
        await api()
          .post('/api/v1/inventory/adjustments')
          .set(bearer(manager))
          .send([{ type: 'receive' }]),
        [400, 422],
      );
      await expectStock(item('BEV-001'), ids.warehouse.DT, 50);
    });
  });

  describe('serial-tracked items', () => {
    const dtSerial = (sku: string, n: number) => `${sku}-${ids.warehouse.DT}-000${n}`;

    it('receive needs one new serial number per unit and adds them in stock', async () => {
      const res = await adjust({
        type: 'receive',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-002'), quantity: 2, serial_numbers: [' SN-NEW-1 ', 'SN-NEW-2'] }],
      });
      expect(res.status).toBe(201);
      expect(res.body.data.movements[0]).toMatchObject({ quantity: 2, balance_after: 7 });
      await expectStock(item('ELC-002'), ids.warehouse.DT, 7);
      expect(await serial('SN-NEW-1')).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
      expect(await serial('SN-NEW-2')).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
      const listed = await api()
        .get(`/api/v1/items/${item('ELC-002')}/serial-numbers?warehouse_id=${ids.warehouse.DT}&status=in_stock`)
        .set(bearer(cashier));
      expect(listed.body.data.map((s: { serial: string }) => s.serial)).toEqual(expect.arrayContaining(['SN-NEW-1', 'SN-NEW-2']));
      expect(listed.body.data).toHaveLength(7);
    });

    it('refuses missing, miscounted, repeated or already-in-stock serials (422) and changes nothing', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ item_id: item('ELC-002'), quantity: 1 }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 2, serial_numbers: ['SN-X-1'] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 2, serial_numbers: ['SN-X-1', 'SN-X-1'] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 1, serial_numbers: [dtSerial('ELC-002', 1)] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 1, serial_numbers: ['SN-NEW-1'] }, 'items.0.serial_numbers'],
        [{ item_id: item('ELC-002'), quantity: 1, serial_numbers: [''] }, 'items.0.serial_numbers'],
      ];
      for (const [line, key] of cases) {
        const res = await adjust({ type: 'receive', warehouse_id: ids.warehouse.DT, items: [line] });
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(res.body.errors[key]).toBeDefined();
      }
      await expectStock(item('ELC-002'), ids.warehouse.DT, 7);
      expect(await serial('SN-X-1')).toBeUndefined();
      const count = await adjust({ type: 'count', warehouse_id: ids.warehouse.DT, items: [{ item_id: item('ELC-002'), quantity: 9 }] });
      expect(count.status).toBe(422);
      expect(count.body.errors['items.0.item_id']).toBeDefined();
      await expectStock(item('ELC-002'), ids.warehouse.DT, 7);
    });

    it('damage and spoilage write off the named serials', async () => {
      const damage = await adjust({
        type: 'damage',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [dtSerial('ELC-003', 1)] }],
      });
      expect(damage.status).toBe(201);
      await expectStock(item('ELC-003'), ids.warehouse.DT, 4);
      expect(await serial(dtSerial('ELC-003', 1))).toMatchObject({ status: 'damaged' });
      const spoil = await adjust({
        type: 'spoilage',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [dtSerial('ELC-003', 2)] }],
      });
      expect(spoil.status).toBe(201);
      expect(await serial(dtSerial('ELC-003', 2))).toMatchObject({ status: 'spoiled' });
      await expectStock(item('ELC-003'), ids.warehouse.DT, 3);
      const damaged = await api()
        .get(`/api/v1/items/${item('ELC-003')}/serial-numbers?status=damaged`)
        .set(bearer(cashier));
      expect(damaged.body.data.map((s: { serial: string }) => s.serial)).toEqual([dtSerial('ELC-003', 1)]);
    });

    it('refuses unknown serials, serials in another warehouse or no longer in stock (422), changing nothing', async () => {
      for (const serialNo of ['NO-SUCH-SERIAL', `ELC-003-${ids.warehouse.CENTRAL}-0001`, dtSerial('ELC-003', 1), dtSerial('ELC-002', 1)]) {
        const res = await adjust({
          type: 'damage',
          warehouse_id: ids.warehouse.DT,
          items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [serialNo] }],
        });
        expectErrorEnvelope(res, 422);
        expect(res.body.errors['items.0.serial_numbers']).toBeDefined();
      }
      await expectStock(item('ELC-003'), ids.warehouse.DT, 3);
      expect(await serial(`ELC-003-${ids.warehouse.CENTRAL}-0001`)).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.CENTRAL });
      expect(await serial(dtSerial('ELC-003', 3))).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
    });

    it('transfer moves the named serials with the stock', async () => {
      const res = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.CENTRAL,
        items: [{ item_id: item('ELC-005'), quantity: 2, serial_numbers: [dtSerial('ELC-005', 1), dtSerial('ELC-005', 2)] }],
      });
      expect(res.status).toBe(201);
      await expectStock(item('ELC-005'), ids.warehouse.DT, 3);
      await expectStock(item('ELC-005'), ids.warehouse.CENTRAL, 7);
      expect(await serial(dtSerial('ELC-005', 1))).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.CENTRAL });
      const bad = await adjust({
        type: 'transfer',
        warehouse_id: ids.warehouse.DT,
        to_warehouse_id: ids.warehouse.CENTRAL,
        items: [{ item_id: item('ELC-005'), quantity: 1, serial_numbers: [dtSerial('ELC-005', 1)] }],
      });
      expect(bad.status).toBe(422);
      await expectStock(item('ELC-005'), ids.warehouse.DT, 3);
      await expectStock(item('ELC-005'), ids.warehouse.CENTRAL, 7);
    });

    it('a written-off serial can be received again and is back in stock', async () => {
      const res = await adjust({
        type: 'receive',
        warehouse_id: ids.warehouse.DT,
        items: [{ item_id: item('ELC-003'), quantity: 1, serial_numbers: [dtSerial('ELC-003', 1)] }],
      });
      expect(res.status).toBe(201);
      expect(await serial(dtSerial('ELC-003', 1))).toEqual({ status: 'in_stock', warehouse_id: ids.warehouse.DT });
      await expectStock(item('ELC-003'), ids.warehouse.DT, 4);
    });
  });
});
