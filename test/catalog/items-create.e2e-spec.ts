import { expectErrorEnvelope, TestApp } from '../support/test-app';
import { DemoIds, demoBarcode, expectNo5xx, LONG } from './catalog-helpers';
import { bootItems, CASE_BARCODE, itemsTools } from './items-helpers';

/**
 * Items: create, with what a new item may not take (a taken SKU or barcode, bad fields). Setup and the
 * helpers are in items-helpers.ts.
 */
describe('Catalog items', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let cashier: string;
  let ids: DemoIds;

  const { api, list, create, names, countSku } = itemsTools(() => ({ t, manager, cashier }));

  beforeAll(async () => {
    ({ t, admin, manager, cashier, ids } = await bootItems());
  });
  afterAll(() => t.close());

  describe('POST /items', () => {
    it('creates an item (201) with barcodes, units, category, tax class and warehouse reorder levels', async () => {
      const [tax] = await t.db.query("SELECT id FROM tax_classes WHERE code = 'standard'");
      const res = await create({
        sku: ' NEW-001 ',
        name: ' Lemonade 330ml ',
        description: 'Fresh',
        category_id: ids.category.beverages,
        base_price: 2.49,
        cost: 0.29,
        tax_class_id: Number(tax.id),
        base_unit: 'can',
        reorder_level: 12,
        reorder_quantity: 48,
        barcodes: [' 5000000000011 ', '5000000000028'],
        units: [
          { name: ' six-pack ', factor: 6, price: 13.5, barcode: '5000000000035' },
          { name: 'tray', factor: 24 },
        ],
        warehouse_reorder_levels: [{ warehouse_id: ids.warehouse.DT, reorder_level: 3 }],
      });
      expect(res.status).toBe(201);
      expect(res.body.success).toBe(true);
      const d = res.body.data;
      expect(d).toMatchObject({
        sku: 'NEW-001',
        name: 'Lemonade 330ml',
        description: 'Fresh',
        category: { id: ids.category.beverages, name: 'Beverages' },
        base_price: 2.49,
        cost: 0.29,
        tax_class_id: Number(tax.id),
        tax_class: { code: 'standard' },
        base_unit: 'can',
        is_active: true,
        is_serial_tracked: false,
        reorder_level: 12,
        reorder_quantity: 48,
        barcodes: ['5000000000011', '5000000000028'],
        deleted_at: null,
      });
      expect(d.units).toEqual([
        { id: expect.any(Number), name: 'six-pack', factor: 6, price: 13.5, barcode: '5000000000035' },
        { id: expect.any(Number), name: 'tray', factor: 24, price: null, barcode: null },
      ]);
      expect(d.stock).toEqual([{ warehouse_id: ids.warehouse.DT, quantity: 0, reorder_level: 3, stock_status: 'out' }]);

      const [row] = await t.db.query('SELECT base_price, cost, deleted_at FROM items WHERE id = ?', [d.id]);
      expect(Number(row.base_price)).toBe(249);
      expect(Number(row.cost)).toBe(29);
      const codes = await t.db.query('SELECT barcode, item_unit_id FROM item_barcodes WHERE item_id = ? ORDER BY barcode', [d.id]);
      expect(codes.map((c: { barcode: string }) => c.barcode)).toEqual(['5000000000011', '5000000000028', '5000000000035']);
      expect(codes.filter((c: { item_unit_id: number | null }) => c.item_unit_id !== null)).toHaveLength(1);

      const found = await list('?q=5000000000035');
      expect(names(found)).toEqual(['Lemonade 330ml']);
      expect(names(await list('?q=NEW-0'))).toEqual(['Lemonade 330ml']);
    });

    it('creates a minimal item with defaults', async () => {
      const res = await create({ sku: 'MIN-001', name: 'Minimal', base_price: 0 }, admin);
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({
        sku: 'MIN-001',
        base_price: 0,
        cost: 0,
        base_unit: 'each',
        category: null,
        tax_class: null,
        is_active: true,
        reorder_level: 0,
        barcodes: [],
        units: [],
        stock: [],
      });
      const fromString = await create({ sku: 'MIN-002', name: 'Minimal string price', base_price: '12.5' });
      expect(fromString.status).toBe(201);
      expect(fromString.body.data.base_price).toBe(12.5);
    });

    it('refuses a SKU that is taken (also after trimming) with 422 errors.sku', async () => {
      for (const sku of ['BEV-001', '  BEV-001  ']) {
        const res = await create({ sku, name: 'Clone', base_price: 1 });
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(res.body.errors.sku).toEqual(['The sku has already been taken.']);
      }
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM items WHERE name = 'Clone'"))[0].n)).toBe(0);
    });

    it('refuses a barcode used by another item or unit, or listed twice, with 422 naming the entry', async () => {
      const base = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, barcodes: ['5999999999999', demoBarcode(0)] });
      expectErrorEnvelope(base, 422);
      expect(Object.keys(base.body.errors)).toEqual(['barcodes.1']);
      const caseCode = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, barcodes: [CASE_BARCODE] });
      expect(caseCode.body.errors['barcodes.0']).toBeDefined();
      const unit = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, units: [{ name: 'box', factor: 6, barcode: demoBarcode(5) }] });
      expectErrorEnvelope(unit, 422);
      expect(Object.keys(unit.body.errors)).toEqual(['units.0.barcode']);
      const twice = await create({ sku: 'DUP-001', name: 'Dup 1', base_price: 1, barcodes: ['5999999999998', '5999999999998'] });
      expect(twice.status).toBe(422);
      expect(twice.body.errors['barcodes.1']).toBeDefined();
      const unitTwice = await create({
        sku: 'DUP-001',
        name: 'Dup 1',
        base_price: 1,
        barcodes: ['5999999999997'],
        units: [{ name: 'box', factor: 6, barcode: '5999999999997' }],
      });
      expect(unitTwice.status).toBe(422);
      expect(unitTwice.body.errors['units.0.barcode']).toBeDefined();
      const unitNames = await create({
        sku: 'DUP-001',
        name: 'Dup 1',
        base_price: 1,
        units: [
          { name: 'Box', factor: 6 },
          { name: 'box', factor: 12 },
        ],
      });
      expect(unitNames.status).toBe(422);
      expect(unitNames.body.errors['units.1.name']).toBeDefined();
      expect(await countSku('DUP-001')).toBe(0);
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM item_barcodes WHERE barcode LIKE '59999999999%'"))[0].n)).toBe(0);
    });

    it('validates required fields, types, lengths and ranges (422 naming each field)', async () => {
      const missing = await create({});
      expectErrorEnvelope(missing, 422, 'The given data was invalid.');
      expect(missing.body.errors).toMatchObject({
        sku: ['The sku field is required.'],
        name: ['The name field is required.'],
        base_price: ['The base_price field is required.'],
      });

      const wrong = await create({
        sku: 12,
        name: ['x'],
        base_price: 'abc',
        cost: -1,
        is_active: 'yes',
        category_id: 'abc',
        reorder_level: -1,
        barcodes: 'x',
        units: {},
      });
      expectErrorEnvelope(wrong, 422);
      expect(Object.keys(wrong.body.errors)).toEqual(
        expect.arrayContaining(['barcodes', 'base_price', 'category_id', 'cost', 'is_active', 'name', 'reorder_level', 'sku', 'units']),
      );

      const ranges = await create({
        sku: LONG,
        name: LONG,
        description: LONG,
        base_price: 1e12,
        cost: 1.234,
        base_unit: LONG,
        reorder_quantity: 10_000_001,
        barcodes: [LONG],
      });
      expect(ranges.status).toBe(422);
      // the body's schema first; the currency's decimals (cost 1.234 in dollars) once the rest is valid
      expect(Object.keys(ranges.body.errors).sort()).toEqual(['barcodes', 'base_price', 'base_unit', 'description', 'name', 'reorder_quantity', 'sku']);
      const cents = await create({ sku: 'CENTS-1', name: 'Cents', base_price: 1, cost: 1.234 });
      expectErrorEnvelope(cents, 422);
      expect(cents.body.errors).toEqual({ cost: ['The cost must have at most 2 decimal places.'] });

      // a blank unit was taken, and the item's base_unit became ""
      for (const blank of ['', '   ']) {
        const res = await create({ sku: 'BLANK-UNIT', name: 'Blank unit', base_price: 1, base_unit: blank });
        expect([blank, res.status, Object.keys(res.body.errors ?? {})]).toEqual([blank, 422, ['base_unit']]);
      }

      const negative = await create({ sku: 'NEG-1', name: 'Negative', base_price: -0.01 });
      expect(negative.status).toBe(422);
      expect(Object.keys(negative.body.errors)).toEqual(['base_price']);

      const units = await create({
        sku: 'UNIT-1',
        name: 'Units',
        base_price: 1,
        units: [{ name: 'single', factor: 1 }, { factor: 6 }, { name: 'big', factor: 'x', price: -2 }, null],
      });
      expect(units.status).toBe(422);
      expect(units.body.errors['units.0.factor']).toBeDefined();
      expect(units.body.errors['units.1.name']).toBeDefined();
      expect(units.body.errors['units.2.factor']).toBeDefined();
      expect(units.body.errors['units.2.price']).toBeDefined();
      expect(units.body.errors['units.3']).toBeDefined();

      const refs = await create({
        sku: 'REF-1',
        name: 'Refs',
        base_price: 1,
        category_id: 999999,
        tax_class_id: 999999,
        warehouse_reorder_levels: [{ warehouse_id: 999999, reorder_level: 2 }],
      });
      expect(refs.status).toBe(422);
      expect(refs.body.errors).toEqual({
        category_id: ['The selected category does not exist.'],
        tax_class_id: ['The selected tax class does not exist.'],
        'warehouse_reorder_levels.0.warehouse_id': ['The selected warehouse does not exist.'],
      });
      const sqlRef = await create({ sku: 'REF-1', name: 'Refs', base_price: 1, category_id: "1' OR '1'='1" });
      expect(sqlRef.status).toBe(422);
      expect(Object.keys(sqlRef.body.errors)).toEqual(['category_id']);
      for (const sku of ['NEG-1', 'UNIT-1', 'REF-1']) expect(await countSku(sku)).toBe(0);
    });

    it('refuses a blank (whitespace-only) SKU, name, barcode or unit name with 422', async () => {
      const blank = await create({ sku: '   ', name: '   ', base_price: 1 });
      expectErrorEnvelope(blank, 422);
      expect(blank.body.errors.sku).toBeDefined();
      expect(blank.body.errors.name).toBeDefined();
      const blankBarcode = await create({ sku: 'BLANK-1', name: 'Blank barcode', base_price: 1, barcodes: ['   '] });
      expectErrorEnvelope(blankBarcode, 422);
      expect(blankBarcode.body.errors['barcodes'] ?? blankBarcode.body.errors['barcodes.0']).toBeDefined(); // element rules of string arrays are keyed by the array
      const blankUnit = await create({ sku: 'BLANK-2', name: 'Blank unit', base_price: 1, units: [{ name: '  ', factor: 6 }] });
      expectErrorEnvelope(blankUnit, 422);
      expect(blankUnit.body.errors['units.0.name']).toBeDefined();
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM items WHERE sku = '' OR name = ''"))[0].n)).toBe(0);
      expect(Number((await t.db.query("SELECT COUNT(*) AS n FROM item_barcodes WHERE barcode = ''"))[0].n)).toBe(0);
    });

    it('never answers a barcode that differs only in letter case with a 5xx', async () => {
      const first = await create({ sku: 'CASE-A', name: 'Case A', base_price: 1, barcodes: ['ABC-CASE-1'] });
      expect(first.status).toBe(201);
      const second = await create({ sku: 'CASE-B', name: 'Case B', base_price: 1, barcodes: ['abc-case-1'] });
      expectNo5xx(second, [201, 422]);
      if (second.status === 422) expect(second.body.errors['barcodes.0']).toBeDefined();
      const both = await create({ sku: 'CASE-C', name: 'Case C', base_price: 1, barcodes: ['xyz-case-2', 'XYZ-CASE-2'] });
      expectNo5xx(both, [201, 422]);
      if (both.status === 422) expect(both.body.errors['barcodes.1']).toBeDefined();
    });

    it('lets exactly one of several simultaneous creates with the same SKU win; the others get 422', async () => {
      const results = await Promise.all([1, 2, 3, 4].map((n) => create({ sku: 'RACE-001', name: `Race ${n}`, base_price: 1 })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([201, 422, 422, 422]);
      for (const r of results.filter((x) => x.status === 422)) expect(r.body.errors.sku).toBeDefined();
      expect(await countSku('RACE-001')).toBe(1);
    });

    it('needs catalog.manage (403 for a cashier) and writes nothing', async () => {
      const res = await create({ sku: 'CSH-001', name: 'Cashier item', base_price: 1 }, cashier);
      expectErrorEnvelope(res, 403);
      expect(await countSku('CSH-001')).toBe(0);
      expectErrorEnvelope(await api().post('/api/v1/items').send({ sku: 'ANON-1', name: 'Anon', base_price: 1 }), 401);
    });
  });
});
