/**
 * Inputs and outputs of the pricing engine. Pure data: amounts are integer minor units, rates
 * and percentages are basis points (1% = 100 bp), quantities are integers in sale units.
 */
export type PriceSource = 'base' | 'price_book' | 'pricing_rule' | 'bundle' | 'manual' | 'offline';

export interface PriceBookCandidate {
  priceBookId: number;
  name: string;
  priority: number;
  /** Unit price in this book for the line's sale unit. */
  price: number;
  minQuantity: number;
}

export type Discount = { type: 'percent'; valueBp: number } | { type: 'amount'; value: number };

export interface CartLineInput {
  /** Stable line identity (e.g. its index in the request); ties are broken by it, never by order. */
  key: string;
  itemId: number;
  categoryId: number | null;
  quantity: number;
  /** Base unit price (minor) for the sale unit. */
  basePrice: number;
  priceBooks: PriceBookCandidate[];
  /** Sum of the tax rates that apply to this line, in bp. */
  taxRateBp: number;
  /** A price typed by the cashier (or kept from an offline sale): overrides everything before it. */
  manualUnitPrice?: number;
  manualSource?: 'manual' | 'offline';
  manualDiscount?: Discount;
}

export type RuleKind = 'percent_off' | 'amount_off' | 'fixed_price' | 'quantity_tiers' | 'buy_x_get_y';

export interface RuleConditions {
  itemIds?: number[];
  categoryIds?: number[];
  customerGroupIds?: number[];
  storeIds?: number[];
  /** Minimum quantity of the line. */
  minQuantity?: number;
  /** Minimum cart subtotal (base/book prices) in minor units. */
  minSubtotal?: number;
  /** 0 = Sunday ... 6 = Saturday, in the store's time zone. */
  daysOfWeek?: number[];
  /** "HH:MM" in the store's time zone; the window may cross midnight. */
  startTime?: string;
  endTime?: string;
  validFrom?: Date | null;
  validTo?: Date | null;
}

export interface PricingRule {
  id: number;
  name: string;
  kind: RuleKind;
  priority: number;
  exclusive: boolean;
  active: boolean;
  conditions: RuleConditions;
  /** percent_off: bp; amount_off: minor per unit; fixed_price: minor per unit. */
  value?: number;
  /** quantity_tiers: the highest tier reached applies. */
  tiers?: { minQuantity: number; percentOffBp?: number; unitPrice?: number }[];
  /** buy_x_get_y: in each group of buy + get units, the `get` cheapest are discounted. */
  buyQuantity?: number;
  getQuantity?: number;
  getPercentOffBp?: number;
}

export interface Bundle {
  id: number;
  name: string;
  price: number;
  components: { itemId: number; quantity: number }[];
  active: boolean;
  storeIds?: number[];
  validFrom?: Date | null;
  validTo?: Date | null;
}

export interface PricingContext {
  storeId: number;
  customerGroupId: number | null;
  at: Date;
  timeZone: string;
  pricesIncludeTax: boolean;
  taxExempt: boolean;
}

/** Rules prepared once for many carts: a RuleBook (rule-book.ts), named here by what it was built from. */
export interface PreparedRules {
  readonly source: readonly PricingRule[];
}

export interface CartInput {
  context: PricingContext;
  lines: CartLineInput[];
  rules: PricingRule[];
  /** `RuleBook.ordered(rules)` (rule-book.ts) of these very rules, built once for many carts (one of other rules is ignored). */
  ruleBook?: PreparedRules;
  bundles: Bundle[];
  cartDiscount?: Discount;
}

export interface AppliedStep {
  step: 'base' | 'price_book' | 'pricing_rule' | 'bundle' | 'manual_price' | 'manual_discount' | 'cart_discount' | 'tax';
  id?: number;
  name?: string;
  /** Unit price after this step (price steps) or amount taken off the line (discount steps). */
  unitPrice?: number;
  amount?: number;
}

/** A line's amounts before tax in either tax mode (the books): gross - discounts = net, net + tax = total. */
export interface LineBooks {
  gross: number;
  ruleDiscount: number;
  bundleDiscount: number;
  manualDiscount: number;
  cartDiscount: number;
  net: number;
}

/**
 * A priced line. `gross`, the discounts and `net` are shelf amounts (as the store shows prices:
 * tax included in a tax-inclusive store), what discount limits judge; `books` holds the same
 * amounts before tax, what sales record and reports sum.
 */
export interface PricedLine {
  key: string;
  itemId: number;
  quantity: number;
  basePrice: number;
  /** Unit price after price book, rules or manual price (before line-level discounts). */
  unitPrice: number;
  priceSource: PriceSource;
  /** unitPrice x quantity. */
  gross: number;
  ruleDiscount: number;
  bundleDiscount: number;
  manualDiscount: number;
  cartDiscount: number;
  /** gross - all discounts. Tax-inclusive stores: still includes tax. */
  net: number;
  taxRateBp: number;
  tax: number;
  /** Tax-inclusive store, exempt sale: the tax taken out of the price (else 0). */
  exemptedTax: number;
  /** What the customer pays for the line. */
  total: number;
  books: LineBooks;
  steps: AppliedStep[];
}

export interface PricedCart {
  lines: PricedLine[];
  /** The books, in either tax mode: subtotal - discountTotal + taxTotal = total. */
  /** Sum of the lines' gross before tax. */
  subtotal: number;
  /** Sum of the lines' discounts before tax. */
  discountTotal: number;
  taxTotal: number;
  total: number;
  appliedRuleIds: number[];
  appliedBundleIds: number[];
}
