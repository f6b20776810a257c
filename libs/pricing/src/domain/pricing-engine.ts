import { allocateByLargestRemainder, applyBasisPoints } from '@pos/kernel';
import { localTime, validityAt, withinWindow } from './rule-calendar';
import { booksBeforeTax } from './tax-books';
import { RuleBook } from './rule-book';
import {
  AppliedStep,
  Bundle,
  CartInput,
  CartLineInput,
  Discount,
  PriceBookCandidate,
  PricedCart,
  PricedLine,
  PriceSource,
  PricingContext,
  PricingRule,
} from './pricing.types';

/**
 * The pricing engine: a pure function from a cart to priced lines and totals.
 *
 *   base price -> best applicable price book -> pricing rules -> bundles
 *              -> manual line discount -> cart discount -> tax
 *
 * - Money is integer minor units; every rounding is half away from zero, per line.
 * - A price book replaces the base price (it may be higher: airport prices); among the books
 *   that apply, the highest priority wins, then the lowest price, then the lowest id; within a
 *   book the largest min_quantity the line reaches.
 * - Rules go by priority (high first), then id. If any exclusive rule applies to a line, only
 *   the first such rule applies to it; otherwise every applicable rule applies in turn, the
 *   unit-price rules first and buy-X-get-Y (a discount on free units) last, at the final unit
 *   price. A rule never raises a price (a fixed price above the current one does nothing).
 *   Buy-X-get-Y counts units of the same line (same item).
 * - A manual unit price (cashier override, or the price an offline device charged) replaces
 *   book and rules, and such a line takes no rule or bundle.
 * - Cart discounts are split over lines by largest remainder in proportion to their net, so the
 *   lines always sum to the total. Ties are broken by line key, never by position: the result
 *   does not depend on line order.
 * - Tax-exclusive: tax = net x rate. Tax-inclusive: the net already holds the tax,
 *   tax = net x rate / (1 + rate). Exempt carts pay no tax: in a tax-inclusive store the tax the
 *   price holds is taken out of the line total (`exemptedTax`).
 */
export function priceCart(input: CartInput): PricedCart {
  const keys = new Set<string>();
  for (const line of input.lines) {
    if (keys.has(line.key)) throw new Error(`Duplicate line key ${line.key}`);
    keys.add(line.key);
    if (!Number.isSafeInteger(line.quantity) || line.quantity <= 0) throw new RangeError(`Line ${line.key}: quantity must be a positive integer`);
    if (!Number.isSafeInteger(line.basePrice) || line.basePrice < 0) throw new RangeError(`Line ${line.key}: base price must be a non-negative integer`);
  }
  const ctx = input.context;
  const ordered = [...input.lines].sort((a, b) => compareKeys(a.key, b.key));
  const work = new Map<string, WorkLine>();
  for (const line of ordered) work.set(line.key, startLine(line));

  const subtotalBeforeRules = [...work.values()].reduce((sum, l) => sum + l.unitPrice * l.input.quantity, 0);
  const given = input.ruleBook;
  const book = given instanceof RuleBook && given.source === input.rules ? given : RuleBook.ordered(input.rules);
  const appliedRuleIds = new Set<number>();
  const rulesFor = book.forCart(ctx, subtotalBeforeRules);
  for (const line of work.values()) applyRules(line, rulesFor(line.input), appliedRuleIds);

  const appliedBundleIds = applyBundles([...work.values()], input.bundles, ctx);

  for (const line of work.values()) applyManualDiscount(line);
  applyCartDiscount([...work.values()], input.cartDiscount);
  for (const line of work.values()) applyTax(line, ctx);

  const lines = input.lines.map((l) => finish(work.get(l.key)!, ctx));
  return {
    lines,
    subtotal: sum(lines.map((l) => l.books.gross)),
    discountTotal: sum(lines.map((l) => l.books.gross - l.books.net)),
    taxTotal: sum(lines.map((l) => l.tax)),
    total: sum(lines.map((l) => l.total)),
    appliedRuleIds: [...appliedRuleIds].sort((a, b) => a - b),
    appliedBundleIds,
  };
}

interface WorkLine {
  input: CartLineInput;
  unitPrice: number;
  source: PriceSource;
  locked: boolean;
  ruleDiscount: number;
  bundleDiscount: number;
  manualDiscount: number;
  cartDiscount: number;
  tax: number;
  /** Tax-inclusive store, exempt sale: the tax taken out of the price. */
  exemptedTax: number;
  total: number;
  steps: AppliedStep[];
}

function startLine(line: CartLineInput): WorkLine {
  const w: WorkLine = {
    input: line,
    unitPrice: line.basePrice,
    source: 'base',
    locked: false,
    ruleDiscount: 0,
    bundleDiscount: 0,
    manualDiscount: 0,
    cartDiscount: 0,
    tax: 0,
    exemptedTax: 0,
    total: 0,
    steps: [{ step: 'base', unitPrice: line.basePrice }],
  };
  const book = bestPriceBook(line.priceBooks, line.quantity);
  if (book) {
    w.unitPrice = book.price;
    w.source = 'price_book';
    w.steps.push({ step: 'price_book', id: book.priceBookId, name: book.name, unitPrice: book.price });
  }
  if (line.manualUnitPrice !== undefined) {
    w.unitPrice = line.manualUnitPrice;
    w.source = line.manualSource ?? 'manual';
    w.locked = true;
    w.steps.push({ step: 'manual_price', unitPrice: line.manualUnitPrice });
  }
  return w;
}

export function bestPriceBook(candidates: PriceBookCandidate[], quantity: number): PriceBookCandidate | undefined {
  const perBook = new Map<number, PriceBookCandidate>();
  for (const c of candidates) {
    if (c.minQuantity > quantity || c.price < 0) continue;
    const current = perBook.get(c.priceBookId);
    if (!current || c.minQuantity > current.minQuantity || (c.minQuantity === current.minQuantity && c.price < current.price)) perBook.set(c.priceBookId, c);
  }
  return [...perBook.values()].sort((a, b) => b.priority - a.priority || a.price - b.price || a.priceBookId - b.priceBookId)[0];
}

export function ruleApplies(rule: PricingRule, line: CartLineInput, ctx: PricingContext, cartSubtotal: number): boolean {
  return ruleAppliesToCart(rule, ctx, cartSubtotal, () => localTime(ctx.at, ctx.timeZone)) && ruleAppliesToLine(rule, line);
}

/** The conditions a rule puts on the cart's context: the same for every line of the cart. */
function ruleAppliesToCart(rule: PricingRule, ctx: PricingContext, cartSubtotal: number, local: () => { dayOfWeek: number; minutes: number }): boolean {
  const c = rule.conditions;
  if (!rule.active || validityAt(c, ctx.at) !== 'active') return false;
  if (c.storeIds?.length && !c.storeIds.includes(ctx.storeId)) return false;
  if (c.customerGroupIds?.length && (ctx.customerGroupId === null || !c.customerGroupIds.includes(ctx.customerGroupId))) return false;
  if (c.minSubtotal !== undefined && cartSubtotal < c.minSubtotal) return false;
  if (c.daysOfWeek?.length || c.startTime || c.endTime) {
    const { dayOfWeek, minutes } = local();
    if (c.daysOfWeek?.length && !c.daysOfWeek.includes(dayOfWeek)) return false;
    if (!withinWindow(minutes, c.startTime, c.endTime)) return false;
  }
  return true;
}

/** The conditions a rule puts on one line: its item or category, and its quantity. */
function ruleAppliesToLine(rule: PricingRule, line: CartLineInput): boolean {
  const c = rule.conditions;
  const scoped = (c.itemIds?.length ?? 0) > 0 || (c.categoryIds?.length ?? 0) > 0;
  if (scoped && !(c.itemIds?.includes(line.itemId) || (line.categoryId !== null && c.categoryIds?.includes(line.categoryId)))) return false;
  if (c.minQuantity !== undefined && line.quantity < c.minQuantity) return false;
  return true;
}

/**
 * The rules (in their order) that apply to each line of one cart: the cart's conditions are
 * checked at most once per rule, and a line looks only at the rules naming its item or category
 * (see RuleBook; `priceCart` uses a book built once when it is given one).
 */
export function ruleIndex(rules: PricingRule[], ctx: PricingContext, cartSubtotal: number): (line: CartLineInput) => PricingRule[] {
  return new RuleBook(rules).forCart(ctx, cartSubtotal);
}

/** Applies the line's applicable rules (in priority order, already checked against cart and line). */
function applyRules(line: WorkLine, applicable: PricingRule[], applied: Set<number>): void {
  if (line.locked) return;
  const exclusive = applicable.find((r) => r.exclusive);
  const chosen = exclusive ? [exclusive] : applicable;
  // Unit-price rules first (by priority); buy-X-get-Y discounts then use the final unit price.
  const ordered = [...chosen.filter((r) => r.kind !== 'buy_x_get_y'), ...chosen.filter((r) => r.kind === 'buy_x_get_y')];
  for (const rule of ordered) {
    const before = line.unitPrice;
    const discountBefore = line.ruleDiscount;
    applyRule(line, rule);
    if (line.unitPrice !== before || line.ruleDiscount !== discountBefore) {
      applied.add(rule.id);
      line.source = 'pricing_rule';
      line.steps.push({
        step: 'pricing_rule',
        id: rule.id,
        name: rule.name,
        unitPrice: line.unitPrice,
        amount: line.ruleDiscount - discountBefore || undefined,
      });
    }
  }
}

function applyRule(line: WorkLine, rule: PricingRule): void {
  const qty = line.input.quantity;
  switch (rule.kind) {
    case 'percent_off':
      line.unitPrice -= applyBasisPoints(line.unitPrice, clampBp(rule.value ?? 0));
      break;
    case 'amount_off':
      line.unitPrice = Math.max(0, line.unitPrice - Math.max(0, rule.value ?? 0));
      break;
    case 'fixed_price':
      if (rule.value !== undefined && rule.value >= 0) line.unitPrice = Math.min(line.unitPrice, rule.value);
      break;
    case 'quantity_tiers': {
      const tier = [...(rule.tiers ?? [])].filter((t) => t.minQuantity <= qty).sort((a, b) => b.minQuantity - a.minQuantity)[0];
      if (!tier) break;
      if (tier.unitPrice !== undefined) line.unitPrice = Math.min(line.unitPrice, Math.max(0, tier.unitPrice));
      else if (tier.percentOffBp !== undefined) line.unitPrice -= applyBasisPoints(line.unitPrice, clampBp(tier.percentOffBp));
      break;
    }
    case 'buy_x_get_y': {
      const buy = rule.buyQuantity ?? 0;
      const get = rule.getQuantity ?? 0;
      if (buy <= 0 || get <= 0) break;
      const freeUnits = Math.floor(qty / (buy + get)) * get;
      const remaining = line.unitPrice * qty - line.ruleDiscount;
      const discount = applyBasisPoints(line.unitPrice * freeUnits, clampBp(rule.getPercentOffBp ?? 10000));
      line.ruleDiscount += Math.min(discount, remaining);
      break;
    }
  }
}

function bundleApplies(bundle: Bundle, ctx: PricingContext): boolean {
  if (!bundle.active || bundle.components.length === 0) return false;
  if (bundle.storeIds?.length && !bundle.storeIds.includes(ctx.storeId)) return false;
  return validityAt(bundle, ctx.at) === 'active';
}

/** How many times a bundle fits in the given quantities per item. */
export function bundleCount(bundle: Bundle, available: Map<number, number>): number {
  return Math.min(...bundle.components.map((c) => (c.quantity > 0 ? Math.floor((available.get(c.itemId) ?? 0) / c.quantity) : 0)));
}

function applyBundles(lines: WorkLine[], bundles: Bundle[], ctx: PricingContext): number[] {
  const applied: number[] = [];
  const free = lines.filter((l) => !l.locked);
  const remaining = new Map<string, number>(free.map((l) => [l.input.key, l.input.quantity]));
  for (const bundle of [...bundles].sort((a, b) => a.id - b.id)) {
    if (!bundleApplies(bundle, ctx)) continue;
    const available = new Map<number, number>();
    for (const l of free) available.set(l.input.itemId, (available.get(l.input.itemId) ?? 0) + remaining.get(l.input.key)!);
    const count = bundleCount(bundle, available);
    if (count <= 0) continue;
    // Consume the component units from lines in key order and value them at what they cost after
    // the rules: a unit buy-X-get-Y made free is worth nothing to the bundle (else the two savings
    // add up to more than the units cost: 2 x 10.00 on buy 1 get 1, bundled at 8.00, sold free).
    const consumed: { line: WorkLine; units: number }[] = [];
    for (const comp of bundle.components) {
      let need = comp.quantity * count;
      for (const l of free) {
        if (need === 0) break;
        if (l.input.itemId !== comp.itemId) continue;
        const take = Math.min(need, remaining.get(l.input.key)!);
        if (take > 0) {
          consumed.push({ line: l, units: take });
          remaining.set(l.input.key, remaining.get(l.input.key)! - take);
          need -= take;
        }
      }
    }
    const weights = consumed.map((c) => unitsValue(c.line, c.units));
    const value = sum(weights);
    const saving = value - bundle.price * count;
    if (saving <= 0) {
      for (const c of consumed) remaining.set(c.line.input.key, remaining.get(c.line.input.key)! + c.units);
      continue;
    }
    const parts = allocateByLargestRemainder(saving, weights);
    consumed.forEach((c, i) => {
      const room = c.line.unitPrice * c.line.input.quantity - c.line.ruleDiscount - c.line.bundleDiscount;
      const part = Math.min(parts[i], room);
      c.line.bundleDiscount += part;
      c.line.source = 'bundle';
      c.line.steps.push({ step: 'bundle', id: bundle.id, name: bundle.name, amount: part });
    });
    applied.push(bundle.id);
  }
  return applied;
}

/** What `units` of a line cost after its rules: its net after rules, pro rata, rounded down. */
function unitsValue(line: WorkLine, units: number): number {
  if (line.ruleDiscount === 0) return units * line.unitPrice;
  const qty = line.input.quantity;
  const afterRules = line.unitPrice * qty - line.ruleDiscount;
  return units === qty ? afterRules : Number((BigInt(units) * BigInt(afterRules)) / BigInt(qty));
}

function netBeforeManual(line: WorkLine): number {
  return line.unitPrice * line.input.quantity - line.ruleDiscount - line.bundleDiscount;
}

function discountAmount(discount: Discount, base: number): number {
  if (base <= 0) return 0;
  const raw = discount.type === 'percent' ? applyBasisPoints(base, clampBp(discount.valueBp)) : Math.max(0, discount.value);
  return Math.min(raw, base);
}

function applyManualDiscount(line: WorkLine): void {
  const d = line.input.manualDiscount;
  if (!d) return;
  const amount = discountAmount(d, netBeforeManual(line));
  if (amount <= 0) return;
  line.manualDiscount = amount;
  if (line.source !== 'offline') line.source = 'manual';
  line.steps.push({ step: 'manual_discount', amount });
}

function applyCartDiscount(lines: WorkLine[], discount: Discount | undefined): void {
  if (!discount) return;
  const nets = lines.map((l) => netBeforeManual(l) - l.manualDiscount);
  const amount = discountAmount(discount, sum(nets));
  if (amount <= 0) return;
  const parts = allocateByLargestRemainder(amount, nets);
  lines.forEach((l, i) => {
    l.cartDiscount = parts[i];
    if (parts[i] > 0) l.steps.push({ step: 'cart_discount', amount: parts[i] });
  });
}

function applyTax(line: WorkLine, ctx: PricingContext): void {
  const net = netBeforeManual(line) - line.manualDiscount - line.cartDiscount;
  const rate = ctx.taxExempt ? 0 : Math.max(0, line.input.taxRateBp);
  if (ctx.pricesIncludeTax) {
    const included = (r: number) => (r === 0 ? 0 : Number(roundDiv(BigInt(net) * BigInt(r), BigInt(10000 + r))));
    line.tax = included(rate);
    // An exempt customer in a tax-inclusive store pays the price without the tax it holds.
    line.exemptedTax = ctx.taxExempt ? included(Math.max(0, line.input.taxRateBp)) : 0;
    line.total = net - line.exemptedTax;
  } else {
    line.tax = applyBasisPoints(net, rate);
    line.total = net + line.tax;
  }
  if (line.tax !== 0) line.steps.push({ step: 'tax', amount: line.tax });
}

function finish(l: WorkLine, ctx: PricingContext): PricedLine {
  const gross = l.unitPrice * l.input.quantity;
  return {
    key: l.input.key,
    itemId: l.input.itemId,
    quantity: l.input.quantity,
    basePrice: l.input.basePrice,
    unitPrice: l.unitPrice,
    priceSource: l.source,
    gross,
    ruleDiscount: l.ruleDiscount,
    bundleDiscount: l.bundleDiscount,
    manualDiscount: l.manualDiscount,
    cartDiscount: l.cartDiscount,
    net: gross - l.ruleDiscount - l.bundleDiscount - l.manualDiscount - l.cartDiscount,
    taxRateBp: l.input.taxRateBp,
    tax: l.tax,
    exemptedTax: l.exemptedTax,
    total: l.total,
    books: booksBeforeTax(
      { gross, ruleDiscount: l.ruleDiscount, bundleDiscount: l.bundleDiscount, manualDiscount: l.manualDiscount, cartDiscount: l.cartDiscount },
      l.input.taxRateBp,
      ctx.pricesIncludeTax,
    ),
    steps: l.steps,
  };
}

function roundDiv(n: bigint, d: bigint): bigint {
  const q = n / d;
  return (n % d) * 2n >= d ? q + 1n : q;
}

function clampBp(bp: number): number {
  return Math.min(10000, Math.max(0, Math.trunc(bp)));
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function compareKeys(a: string, b: string): number {
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export { validityAt, localTime } from './rule-calendar';
export type { Validity } from './rule-calendar';
export { booksBeforeTax } from './tax-books';
export { RuleBook } from './rule-book';
