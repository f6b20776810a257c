import { startTestApp, TestApp } from '../support/test-app';
import { DemoIds } from '../catalog/catalog-helpers';
import { sumMoney } from './pricing-helpers';
import { BundleFixtures, bundleFixtures, bundleKit, BundleView } from './bundle-helpers';

/** Bundles (contract 4.8): CRUD, POST /bundles/calculate (201), availability, and bundles in cart pricing.
 * This part: the fixture bundles (bundle-helpers.ts) applied by POST /pricing/cart. */
describe('Bundles', () => {
  let t: TestApp;
  let f: BundleFixtures;
  let manager: string;
  let ids: DemoIds;
  let b: Record<string, BundleView>;

  const { item, cart, lines } = bundleKit(
    () => t,
    () => f,
  );

  beforeAll(async () => {
    t = await startTestApp();
    f = await bundleFixtures(t);
    ({ manager, ids, b } = f);
  });
  afterAll(() => t.close());
  describe('bundles in POST /pricing/cart', () => {
    it('applies a bundle when all its components are present, splitting the saving over the lines', async () => {
      const res = await cart({
        items: [
          { id: item('SNK-001'), qty: 2 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(res.status).toBe(200);
      const [crisps, cola] = lines(res);
      expect([crisps.price_source, crisps.unit_price, crisps.discounts.bundle, crisps.net, crisps.tax, crisps.total]).toEqual([
        'bundle',
        2.49,
        0.57,
        4.41,
        0.36,
        4.77,
      ]);
      expect([cola.price_source, cola.unit_price, cola.discounts.bundle, cola.net, cola.tax, cola.total]).toEqual(['bundle', 1.79, 0.21, 1.58, 0.13, 1.71]);
      expect(crisps.steps.find((s) => s.step === 'bundle')).toEqual({
        step: 'bundle',
        id: b['Snack pack'].id,
        name: 'Snack pack',
        unit_price: null,
        amount: 0.57,
      });
      expect(res.body.data).toMatchObject({ subtotal: 6.77, discount_total: 0.78, tax_total: 0.49, total: 6.48, applied_bundles: [b['Snack pack'].id] });
      expect(res.body.data.total).toBe(sumMoney(lines(res).map((l) => l.total)));
    });

    it('does not apply it when a component is missing or short', async () => {
      for (const items of [
        [{ id: item('SNK-001'), qty: 2 }],
        [
          { id: item('SNK-001'), qty: 1 },
          { id: item('BEV-003'), qty: 1 },
        ],
        [{ id: item('BEV-003'), qty: 5 }],
      ]) {
        const res = await cart({ items });
        expect(res.body.data.applied_bundles).toEqual([]);
        expect(lines(res).every((l) => l.price_source === 'base' && l.discounts.bundle === 0)).toBe(true);
      }
    });

    it('applies it as many times as the components allow, across lines of the same item', async () => {
      const once = await cart({
        items: [
          { id: item('SNK-001'), qty: 4 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(lines(once).map((l) => [l.discounts.bundle, l.total])).toEqual([
        [0.57, 10.16],
        [0.21, 1.71],
      ]);
      const twice = await cart({
        items: [
          { id: item('SNK-001'), qty: 4 },
          { id: item('BEV-003'), qty: 2 },
        ],
      });
      expect(lines(twice).map((l) => [l.discounts.bundle, l.total])).toEqual([
        [1.15, 9.54],
        [0.41, 3.43],
      ]);
      expect(twice.body.data).toMatchObject({ discount_total: 1.56, total: 12.97, applied_bundles: [b['Snack pack'].id] });
      const split = await cart({
        items: [
          { id: item('SNK-001'), qty: 1 },
          { id: item('SNK-001'), qty: 1 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(lines(split).map((l) => [l.price_source, l.discounts.bundle])).toEqual([
        ['bundle', 0.29],
        ['bundle', 0.29],
        ['bundle', 0.2],
      ]);
    });

    it("leaves out manually priced lines, and values components at the store's price", async () => {
      const manual = await cart({
        items: [
          { id: item('SNK-001'), qty: 2, price: 2 },
          { id: item('BEV-003'), qty: 1 },
        ],
      });
      expect(manual.body.data.applied_bundles).toEqual([]);
      expect(lines(manual).map((l) => l.price_source)).toEqual(['manual', 'base']);
      const airport = await cart(
        {
          store_id: ids.store.AP,
          items: [
            { id: item('SNK-001'), qty: 2 },
            { id: item('BEV-003'), qty: 1 },
          ],
        },
        manager,
      );
      expect(lines(airport).map((l) => [l.unit_price, l.discounts.bundle, l.total, l.tax])).toEqual([
        // the bundle's saving before tax (the books): 1.24 and 0.74 off the shelf prices
        [2.49, 1.15, 3.74, 0.26],
        [2.99, 0.69, 2.25, 0.16],
      ]);
      expect(airport.body.data).toMatchObject({ total: 5.99, applied_bundles: [b['Snack pack'].id] });
    });

    it("applies a store's bundle only there, and never an inactive, expired, upcoming or dearer one", async () => {
      const storeItems = [
        { id: item('SNK-002'), qty: 1 },
        { id: item('BEV-001'), qty: 1 },
      ];
      expect((await cart({ items: storeItems })).body.data.applied_bundles).toEqual([]);
      const ap = await cart({ store_id: ids.store.AP, items: storeItems }, manager);
      expect(ap.body.data).toMatchObject({ applied_bundles: [b['Airport pack'].id], total: 3.99 });
      const res = await cart({
        items: ['COF-003', 'GRO-001', 'GRO-003', 'GRO-004', 'HSE-001', 'HSE-002', 'SNK-004', 'SNK-005'].map((sku) => ({ id: item(sku), qty: 1 })),
      });
      expect(res.body.data.applied_bundles).toEqual([]);
      expect(res.body.data.discount_total).toBe(0);
    });
  });
});
