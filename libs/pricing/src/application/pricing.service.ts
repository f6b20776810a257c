import { Injectable } from '@nestjs/common';
import { Clock, fromMinor, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { Principal } from '@pos/identity';
import { CustomerService } from '@pos/customers';
import { ItemCatalog, ItemRecord, ItemUnitRecord, StoreContext, StoreRecord } from '@pos/catalog';
import { priceCart, RuleBook } from '../domain/pricing-engine';
import { exemptionProblem } from '../domain/tax-exemption';
import { TaxRateRecord } from './reference.records';
import { CartLineInput, Discount, PricedCart, PricedLine, PricingRule } from '../domain/pricing.types';
import { PricingRepository } from './pricing.ports';
import { ActivePricingCache } from './active-pricing.cache';
import { CurrencyDecimals } from './currency-decimals';

export interface CartLineRequest {
  itemId: number;
  quantity: number;
  unitId?: number;
  /** A unit price the client shows (minor); differing from the server's makes it a manual price. */
  price?: number;
  priceSource?: 'manual' | 'offline';
  discount?: Discount;
}

export interface CartRequest {
  storeId?: number;
  customerId?: number;
  taxExempt?: boolean;
  /** Why a sale without a customer is tax exempt (an exemption needs a customer or a reason). */
  taxExemptReason?: string;
  at?: Date;
  /** Base prices (minor, per base unit) replacing items' current ones: the prices in force at `at` (offline sales' reference). */
  basePrices?: ReadonlyMap<number, number>;
  lines: CartLineRequest[];
  cartDiscount?: Discount;
  /** Field prefix for 422 keys ("items" in checkout bodies). */
  field?: string;
}

export interface PricedCartResult {
  store: StoreRecord;
  decimals: number;
  customerId: number | null;
  customerGroupId: number | null;
  taxExempt: boolean;
  items: Map<number, ItemRecord>;
  units: (ItemUnitRecord | null)[];
  /** Server unit prices before any manual price (what the client should have shown). */
  serverUnitPrices: number[];
  cart: PricedCart;
}

/**
 * Prices carts for a store with the engine: gathers the store's tax mode and rates, the
 * customer's group, the price-book entries that apply, and the active rules and bundles.
 * Units sold by a pack (a case of 12) are priced per pack: the unit's own price, else
 * factor x base price; price-book prices are per base unit and scaled the same way.
 */
@Injectable()
export class PricingService {
  constructor(
    private readonly pricing: PricingRepository,
    private readonly items: ItemCatalog,
    private readonly stores: StoreContext,
    private readonly customers: CustomerService,
    private readonly clock: Clock,
    private readonly active: ActivePricingCache,
    private readonly currencies: CurrencyDecimals,
  ) {}

  /** Price-book entries that apply to an item now for a store and customer group. */
  async candidates(itemId: number, store: StoreRecord, customerGroupId: number | null) {
    return (
      (await this.active.priceBookCandidates([itemId], { storeId: store.id, customerGroupId, at: this.clock.now(), currencyCode: store.currencyCode })).get(
        itemId,
      ) ?? []
    );
  }

  /** An item named in the path: unknown or not for sale is a 404 (not a 422 about a cart line). */
  async requireItem(itemId: number): Promise<ItemRecord> {
    const [item] = await this.items.findByIds([itemId]);
    if (!item || !item.isActive) throw new NotFoundError('Item');
    return item;
  }

  async price(principal: Principal, req: CartRequest): Promise<PricedCartResult> {
    const field = req.field ?? 'items';
    const store = await this.stores.resolve(principal, req.storeId);
    const storeId = store.id;
    const problem = exemptionProblem({ taxExempt: req.taxExempt ?? false, hasCustomer: req.customerId !== undefined, reason: req.taxExemptReason });
    if (problem) throw ValidationFailedError.field(problem.field, problem.message);
    let customerGroupId: number | null = null;
    let customerExempt = false;
    if (req.customerId !== undefined) {
      const profile = await this.customers.pricingProfile(req.customerId);
      if (!profile) throw ValidationFailedError.field('customer_id', 'The selected customer does not exist.');
      customerGroupId = profile.customerGroupId;
      customerExempt = profile.taxExempt;
    }
    if (req.lines.length === 0) throw ValidationFailedError.field(field, `The ${field} field must have at least 1 item.`);

    const ids = [...new Set(req.lines.map((l) => l.itemId))];
    const [itemRows, unitRows] = await Promise.all([this.items.findByIds(ids), this.items.units(ids)]);
    const items = new Map(itemRows.map((i) => [i.id, i]));
    const errors: Record<string, string[]> = {};
    const units: (ItemUnitRecord | null)[] = req.lines.map((l, i) => {
      const item = items.get(l.itemId);
      if (!item || !item.isActive) {
        errors[`${field}.${i}.id`] = ['The selected item does not exist or is not for sale.'];
        return null;
      }
      if (l.unitId === undefined) return null;
      const unit = unitRows.find((u) => u.id === l.unitId && u.itemId === l.itemId);
      if (!unit) errors[`${field}.${i}.unit_id`] = ['The selected unit does not belong to the item.'];
      return unit ?? null;
    });
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);

    const at = req.at ?? this.clock.now();
    const [books, rules, bundles, rates, currency] = await Promise.all([
      this.active.priceBookCandidates(ids, { storeId, customerGroupId, at, currencyCode: store.currencyCode }),
      this.active.activeRules(),
      this.active.activeBundles(),
      this.active.taxRates([...new Set(itemRows.map((i) => i.taxClassId).filter((c): c is number => c !== null))], storeId),
      this.currencies.of(store.currencyCode),
    ]);
    const taxExempt = (req.taxExempt ?? false) || customerExempt;
    const lines: CartLineInput[] = req.lines.map((l, i) => {
      const item = items.get(l.itemId)!;
      const unit = units[i];
      const factor = unit?.factor ?? 1;
      const basePrice = req.basePrices?.get(item.id) ?? item.basePrice;
      return {
        key: String(i),
        itemId: item.id,
        categoryId: item.categoryId,
        quantity: l.quantity,
        basePrice: unit ? (unit.price ?? basePrice * factor) : basePrice,
        priceBooks: (books.get(item.id) ?? []).map((b) => ({ ...b, price: b.price * factor })),
        taxRateBp: taxRateFor(item.taxClassId, rates, storeId),
        manualDiscount: l.discount,
      };
    });
    // Guard the arithmetic: totals stay far inside the safe integer range (100 billion).
    const ceiling = 10_000_000_000_000;
    const exposure = lines.reduce((a, l, i) => a + Math.max(l.basePrice, req.lines[i].price ?? 0, ...l.priceBooks.map((b) => b.price)) * l.quantity, 0);
    if (!Number.isSafeInteger(exposure) || exposure > ceiling) throw ValidationFailedError.field(field, 'The cart total is too large.');
    const context = { storeId, customerGroupId, at, timeZone: safeTimeZone(store.timezone), pricesIncludeTax: store.pricesIncludeTax, taxExempt };
    const ruleBook = ruleBookOf(rules);
    const base = priceCart({ context, lines, rules, ruleBook, bundles, cartDiscount: req.cartDiscount });
    const serverUnitPrices = base.lines.map((l) => l.unitPrice);
    // A client price that differs from the server's is a manual price (limits apply at checkout).
    const overridden = req.lines.some((l, i) => l.price !== undefined && (l.price !== serverUnitPrices[i] || l.priceSource === 'offline'));
    const cart = overridden
      ? priceCart({
          context,
          lines: lines.map((line, i) => {
            const r = req.lines[i];
            return r.price !== undefined && (r.price !== serverUnitPrices[i] || r.priceSource === 'offline')
              ? { ...line, manualUnitPrice: r.price, manualSource: r.priceSource ?? 'manual' }
              : line;
          }),
          rules,
          ruleBook,
          bundles,
          cartDiscount: req.cartDiscount,
        })
      : base;
    return { store, decimals: currency, customerId: req.customerId ?? null, customerGroupId, taxExempt, items, units, serverUnitPrices, cart };
  }
}

/**
 * The rule book of the active rules, built once per list the pricing cache holds: the cache
 * answers the same list until it reloads it (5 s, or a write), and nobody changes a list it
 * answered, so a book built from it stays true for as long as the list is answered.
 */
const ruleBooks = new WeakMap<readonly PricingRule[], RuleBook>();
export function ruleBookOf(rules: readonly PricingRule[]): RuleBook {
  let book = ruleBooks.get(rules);
  if (!book) ruleBooks.set(rules, (book = RuleBook.ordered(rules)));
  return book;
}

/** Store-specific rates of a class replace its general ones; several rates of a class add up. */
export function taxRateFor(taxClassId: number | null, rates: TaxRateRecord[], storeId: number): number {
  if (taxClassId === null) return 0;
  const own = rates.filter((r) => r.taxClassId === taxClassId && r.storeId === storeId);
  const chosen = own.length ? own : rates.filter((r) => r.taxClassId === taxClassId && r.storeId === null);
  return chosen.reduce((a, r) => a + r.rateBp, 0);
}

/** Zones already checked (a store's zone is checked on every price: building a formatter to check it costs more than the pricing). */
const checkedZones = new Map<string, string>();

/** The zone when the runtime knows it, UTC otherwise. */
export function safeTimeZone(tz: string): string {
  let zone = checkedZones.get(tz);
  if (zone === undefined) {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      zone = tz;
    } catch {
      zone = 'UTC';
    }
    if (checkedZones.size >= 1_000) checkedZones.clear();
    checkedZones.set(tz, zone);
  }
  return zone;
}

/** A line's discounts by where they came from, and their total (a priced line or a sale line). */
export function discountBreakdown(
  l: { ruleDiscount: number; bundleDiscount: number; manualDiscount: number; cartDiscount: number },
  m: (minor: number) => number,
) {
  return {
    rule: m(l.ruleDiscount),
    bundle: m(l.bundleDiscount),
    manual: m(l.manualDiscount),
    cart: m(l.cartDiscount),
    total: m(l.ruleDiscount + l.bundleDiscount + l.manualDiscount + l.cartDiscount),
  };
}

/** The JSON view of a priced cart, amounts as decimals in the store currency. */
export function pricedCartView(r: PricedCartResult) {
  const m = (v: number) => fromMinor(v, r.decimals);
  return {
    store_id: r.store.id,
    currency: r.store.currencyCode,
    prices_include_tax: r.store.pricesIncludeTax,
    tax_exempt: r.taxExempt,
    customer_id: r.customerId,
    items: r.cart.lines.map((l, i) => pricedLineView(l, r, i)),
    subtotal: m(r.cart.subtotal),
    discount_total: m(r.cart.discountTotal),
    tax_total: m(r.cart.taxTotal),
    total: m(r.cart.total),
    applied_rules: r.cart.appliedRuleIds,
    applied_bundles: r.cart.appliedBundleIds,
  };
}

export function pricedLineView(l: PricedLine, r: PricedCartResult, index: number) {
  const m = (v: number) => fromMinor(v, r.decimals);
  const item = r.items.get(l.itemId)!;
  const unit = r.units[index];
  return {
    line: index,
    item_id: l.itemId,
    sku: item.sku,
    name: item.name,
    quantity: l.quantity,
    unit: unit ? { id: unit.id, name: unit.name, factor: unit.factor } : null,
    base_quantity: l.quantity * (unit?.factor ?? 1),
    base_price: m(l.basePrice),
    server_unit_price: m(r.serverUnitPrices[index]),
    unit_price: m(l.unitPrice),
    price_source: l.priceSource,
    gross: m(l.books.gross),
    discounts: discountBreakdown(l.books, m),
    net: m(l.books.net),
    tax_rate: l.taxRateBp / 100,
    tax: m(l.tax),
    tax_exempted: m(l.exemptedTax),
    total: m(l.total),
    steps: l.steps.map((s) => ({
      step: s.step,
      id: s.id ?? null,
      name: s.name ?? null,
      unit_price: s.unitPrice === undefined ? null : m(s.unitPrice),
      amount: s.amount === undefined ? null : m(s.amount),
    })),
  };
}
