import { applyBasisPoints } from '@pos/kernel';
import { cartInput, DrawnCart, DrawnLine, LineDeal, priceDrawnCart } from './cart';
import { Item, Store } from './types';

const store = (inclusive: boolean): Store => ({
  id: 7,
  code: inclusive ? 'BE' : 'DT',
  tz: 'UTC',
  currency: inclusive ? 'EUR' : 'USD',
  decimals: 2,
  inclusive,
  warehouseId: 70,
  share: 1,
  cashiers: [1],
  rates: { standard: inclusive ? 1900 : 825, reduced: 700, zero: 0 },
});

let nextId = 100;
const item = (price: number, taxClass = 'standard'): Item => {
  const id = nextId++;
  return {
    id,
    sku: `SKU-${id}`,
    name: `Item ${id}`,
    categoryId: 3,
    price,
    bookPrice: price - applyBasisPoints(price, 800),
    bundlePrice: price - applyBasisPoints(price, 500),
    cost: Math.floor(price / 2),
    taxClass,
    serial: false,
  };
};
const line = (i: Item, deal: LineDeal = 'base', qty = 1): DrawnLine => ({ item: i, qty, wh: 70, deal });
const at = new Date('2026-03-04T12:00:00Z');

describe('volume seed carts, priced by the pricing engine', () => {
  it('splits a cart discount over the lines by largest remainder, not by rounding each line', () => {
    // 5% of three lines of 10.10: 1.515 is 1.52 on the cart (the old per-line rounding took 0.51 x 3 = 1.53).
    const cart: DrawnCart = { lines: [line(item(1010)), line(item(1010)), line(item(1010))], cartDiscount: true };
    const priced = priceDrawnCart(store(false), cart, at);
    expect(priced.lines.map((l) => l.cartDiscount)).toEqual([51, 51, 50]);
    expect(priced.discountTotal).toBe(152);
    expect(priced.lines.map((l) => l.net)).toEqual([959, 959, 960]);
    // Tax per line on the discounted net, half away from zero (8.25% of 9.59 = 0.791 -> 0.79).
    expect(priced.lines.map((l) => l.tax)).toEqual([79, 79, 79]);
    expect(priced.total).toBe(3 * 1010 - 152 + 237);
  });

  it('gives each deal its engine input, and the engine names the price source', () => {
    const [rule, book, manual, bundle, offline, base] = [item(1000), item(1000), item(1000), item(1000), item(1000), item(1000)];
    const cart: DrawnCart = {
      lines: [line(rule, 'pricing_rule', 3), line(book, 'price_book'), line(manual, 'manual'), line(bundle, 'bundle', 2), line(offline, 'offline'), line(base)],
      cartDiscount: false,
    };
    const priced = priceDrawnCart(store(false), cart, at);
    const byItem = new Map(priced.lines.map((l) => [l.itemId, l]));
    // The promotion: 10% off the unit price, then the third unit at half price.
    expect(byItem.get(rule.id)).toMatchObject({ priceSource: 'pricing_rule', unitPrice: 900, gross: 2700, ruleDiscount: 450 });
    expect(byItem.get(book.id)).toMatchObject({ priceSource: 'price_book', unitPrice: 920, gross: 920 });
    expect(byItem.get(manual.id)).toMatchObject({ priceSource: 'manual', unitPrice: 1000, manualDiscount: 100 });
    expect(byItem.get(bundle.id)).toMatchObject({ priceSource: 'bundle', unitPrice: 1000, gross: 2000, bundleDiscount: 100 });
    expect(byItem.get(offline.id)).toMatchObject({ priceSource: 'offline', unitPrice: 1000, net: 1000 });
    expect(byItem.get(base.id)).toMatchObject({ priceSource: 'base', unitPrice: 1000, net: 1000 });
    // The promotion reaches only the promoted line, even for an item of the same category.
    expect(cartInput(store(false), cart, at).rules.every((r) => r.conditions.itemIds?.length === 1 && r.conditions.itemIds[0] === rule.id)).toBe(true);
  });

  it('keeps the books before tax in a tax-inclusive store: lines and totals reconcile', () => {
    const cart: DrawnCart = { lines: [line(item(1999), 'manual', 2), line(item(349, 'reduced'), 'base', 3), line(item(1250))], cartDiscount: true };
    const priced = priceDrawnCart(store(true), cart, at);
    for (const l of priced.lines) {
      const b = l.books;
      expect(b.gross - b.ruleDiscount - b.bundleDiscount - b.manualDiscount - b.cartDiscount).toBe(b.net);
      expect(b.net + l.tax).toBe(l.total);
      expect(l.total).toBe(l.net); // the shelf net holds the tax
    }
    expect(priced.subtotal - priced.discountTotal + priced.taxTotal).toBe(priced.total);
    expect(priced.lines.reduce((a, l) => a + l.cartDiscount, 0)).toBe(applyBasisPoints(2 * 1999 - 400 + 3 * 349 + 1250, 500));
  });

  it('draws no promotion, bundle or cart discount for a cart that has none', () => {
    const input = cartInput(store(false), { lines: [line(item(500))], cartDiscount: false }, at);
    expect([input.rules, input.bundles, input.cartDiscount]).toEqual([[], [], undefined]);
  });
});
