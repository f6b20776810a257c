import { Bundle, CartInput, Discount, PricedCart, priceCart, PricingRule } from '@pos/pricing';
import { Rand } from './random';
import { Item, Store } from './types';

/** How a drawn line is priced at the till: the engine input it gets (the engine decides the price source it ends with). */
export type LineDeal = 'base' | 'pricing_rule' | 'price_book' | 'manual' | 'bundle' | 'offline';

export interface DrawnLine {
  item: Item;
  qty: number;
  wh: number;
  deal: LineDeal;
}

export interface DrawnCart {
  lines: DrawnLine[];
  /** 5% off the whole cart, split over its lines by the engine. */
  cartDiscount: boolean;
}

/**
 * The promotions the seeded tills run, in memory only (never written as pricing rules): 10% off,
 * and the third unit at half price, on the lines drawn as promoted. Each cart gets them scoped to
 * its promoted items, so the share of promoted lines stays the seeder's draw.
 */
const PROMOTION: PricingRule = {
  id: 1,
  name: 'Volume promotion',
  kind: 'percent_off',
  priority: 20,
  exclusive: false,
  active: true,
  conditions: {},
  value: 1000,
};
const MULTIBUY: PricingRule = {
  id: 2,
  name: 'Volume multibuy',
  kind: 'buy_x_get_y',
  priority: 10,
  exclusive: false,
  active: true,
  conditions: { minQuantity: 3 },
  buyQuantity: 2,
  getQuantity: 1,
  getPercentOffBp: 5000,
};
const PRICE_BOOK_ID = 1;
const CART_DISCOUNT: Discount = { type: 'percent', valueBp: 500 };
const MANUAL_DISCOUNT: Discount = { type: 'percent', valueBp: 1000 };

/**
 * A sale's lines as the till rings them up: up to 8 distinct items by popularity, mostly one unit,
 * each with its deal; now and then the first line from the central warehouse (not in Berlin), and
 * now and then a cart discount. Draws from `rand` in a fixed order (the seed decides the sales).
 */
export function drawCart(rand: Rand, store: Store, pickItem: () => Item, central: number): DrawnCart {
  const cartDiscount = rand() < 0.03;
  const lineCount = 1 + Math.floor(-Math.log(1 - rand() * 0.999) * 1.6);
  const used = new Set<number>();
  const lines: DrawnLine[] = [];
  const centralLine = store.code !== 'BE' && rand() < 0.02;
  for (let l = 0; l < Math.min(lineCount, 8); l++) {
    const item = pickItem();
    if (used.has(item.id)) continue;
    used.add(item.id);
    const qty = rand() < 0.8 ? 1 : 2 + Math.floor(rand() * 3);
    const wh = centralLine && l === 0 ? central : store.warehouseId;
    const r = rand();
    const deal: LineDeal = r < 0.05 ? 'pricing_rule' : r < 0.11 ? 'price_book' : r < 0.13 ? 'manual' : r < 0.14 ? 'bundle' : r < 0.145 ? 'offline' : 'base';
    lines.push({ item, qty, wh, deal });
  }
  return { lines, cartDiscount };
}

/**
 * The engine's input for a drawn cart: each line's base price, tax rate and deal (a price book
 * candidate, the promotions, a single-item bundle, a manual 10% off, or the price an offline till
 * charged), the cart discount, the store's tax mode. Line keys are the line positions.
 */
export function cartInput(store: Store, cart: DrawnCart, at: Date): CartInput {
  const promoted: number[] = [];
  const bundles: Bundle[] = [];
  const lines = cart.lines.map(({ item, qty, deal }, i) => {
    if (deal === 'pricing_rule') promoted.push(item.id);
    if (deal === 'bundle')
      bundles.push({ id: item.id, name: `Volume bundle ${item.sku}`, price: item.bundlePrice, components: [{ itemId: item.id, quantity: 1 }], active: true });
    return {
      key: String(i),
      itemId: item.id,
      categoryId: item.categoryId,
      quantity: qty,
      basePrice: item.price,
      priceBooks: deal === 'price_book' ? [{ priceBookId: PRICE_BOOK_ID, name: 'Volume members', priority: 0, price: item.bookPrice, minQuantity: 1 }] : [],
      taxRateBp: store.rates[item.taxClass] ?? 0,
      ...(deal === 'offline' ? { manualUnitPrice: item.price, manualSource: 'offline' as const } : {}),
      ...(deal === 'manual' ? { manualDiscount: MANUAL_DISCOUNT } : {}),
    };
  });
  const itemIds = promoted.length ? promoted : undefined;
  return {
    context: { storeId: store.id, customerGroupId: null, at, timeZone: store.tz, pricesIncludeTax: store.inclusive, taxExempt: false },
    lines,
    rules: itemIds ? [PROMOTION, MULTIBUY].map((r) => ({ ...r, conditions: { ...r.conditions, itemIds } })) : [],
    bundles,
    cartDiscount: cart.cartDiscount ? CART_DISCOUNT : undefined,
  };
}

/** A drawn cart priced by the pricing engine: the lines, their discounts, tax and totals a checkout would record. */
export function priceDrawnCart(store: Store, cart: DrawnCart, at: Date): PricedCart {
  return priceCart(cartInput(store, cart, at));
}
