import { amountToMinor, FieldErrorCollector, fromMinor, toMinor, ValidationFailedError } from '@pos/kernel';
import {
  bestPriceBook,
  BundleService,
  BundleWrite,
  CartRequest,
  Discount,
  DiscountApprovalService,
  pricedCartView,
  PricedCartResult,
  pricedLineView,
  PriceChange,
  PricingService,
  RuleValues,
  RuleWrite,
} from '@pos/pricing';
import { lastInstantOfDay } from '../http/date-range';
import {
  BulkPricesDto,
  BundleCalculateDto,
  CreateBundleDto,
  CreateRuleDto,
  DiscountApproveDto,
  PricingCartDto,
  PricingValidateDto,
  UpdateBundleDto,
  UpdateRuleDto,
} from './pricing.dto';

/**
 * The pricing endpoints' shapes: request bodies to the use cases' inputs (JSON amounts in a
 * currency of `decimals` decimals to minor units; more decimals than it has is a 422 naming the
 * field), and priced results to the response views. Controllers only route.
 */

type CartView = ReturnType<typeof pricedCartView>;
type PriceBookCandidate = Awaited<ReturnType<PricingService['candidates']>>[number];

/** percent / percentage: value is 0-100 (to bp); amount / fixed: money (to minor units). */
export function toDiscount(type: string | undefined, value: number | undefined, field: string, decimals: number): Discount | undefined {
  if (!type && (value === undefined || value === 0)) return undefined;
  if (!type) throw ValidationFailedError.field(`${field}_type`, `The ${field}_type field is required with ${field}_value.`);
  if (value === undefined) throw ValidationFailedError.field(`${field}_value`, `The ${field}_value field is required with ${field}_type.`);
  if (type === 'percent' || type === 'percentage') {
    if (value > 100) throw ValidationFailedError.field(`${field}_value`, 'A percentage cannot exceed 100.');
    return { type: 'percent', valueBp: amountToMinor(value, 2, `${field}_value`) }; // basis points: 2 decimals, more is 422
  }
  return { type: 'amount', value: amountToMinor(value, decimals, `${field}_value`) };
}

/** The HTTP cart body to the pricing request, in the store's currency. */
export function cartRequest(body: PricingCartDto, decimals: number): CartRequest {
  const errors = new FieldErrorCollector(); // every faulty amount named at once
  const request: CartRequest = {
    storeId: body.store_id,
    customerId: body.customer_id,
    taxExempt: body.tax_exempt ?? false,
    taxExemptReason: body.tax_exempt_reason,
    cartDiscount: errors.take(() => toDiscount(body.cart_discount_type, body.cart_discount_value, 'cart_discount', decimals)),
    lines: body.items.map((l, i) => ({
      itemId: l.id,
      quantity: l.qty,
      unitId: l.unit_id,
      price: l.price === undefined ? undefined : errors.take(() => amountToMinor(l.price!, decimals, `items.${i}.price`)),
      discount: errors.take(() => toDiscount(l.discount_type, l.discount_value, `items.${i}.discount`, decimals)),
    })),
  };
  errors.check();
  return request;
}

/** POST /pricing/calculate-result: the cart's figures and each line's, without the steps. */
export function cartFiguresView(view: CartView) {
  return {
    subtotal: view.subtotal,
    discount_total: view.discount_total,
    tax_total: view.tax_total,
    total: view.total,
    items: view.items.map((l) => ({
      line: l.line,
      item_id: l.item_id,
      quantity: l.quantity,
      unit_price: l.unit_price,
      price_source: l.price_source,
      discount: l.discounts.total,
      tax: l.tax,
      total: l.total,
    })),
  };
}

/** POST /pricing/calculate: the one line, with the store's currency and tax mode. */
export function pricedItemView(r: PricedCartResult) {
  const view = pricedCartView(r);
  return { ...view.items[0], currency: view.currency, prices_include_tax: view.prices_include_tax };
}

/** A one-item body's problems on its own fields (item_id, unit_id, quantity), not on a cart line's; other errors as they are. */
export function asItemFieldError(e: unknown): unknown {
  if (!(e instanceof ValidationFailedError)) return e;
  const field = (k: string) =>
    k
      .replace(/^items\.0\.id$/, 'item_id')
      .replace(/^items\.0\.unit_id$/, 'unit_id')
      .replace(/^items$/, 'quantity');
  return new ValidationFailedError(Object.fromEntries(Object.entries(e.fields).map(([k, v]) => [field(k), v])));
}

/**
 * POST /pricing/validate: the client's figures against the server's, compared in minor units of
 * the store's currency (the client's must fit it: a 422 naming the field; the server's do).
 */
export function cartValidationView(body: PricingValidateDto, server: CartView, decimals: number) {
  const client = (v: number, field: string) => amountToMinor(v, decimals, field);
  const minor = (v: number) => toMinor(v, decimals);
  const discrepancies: { line: number | null; field: string; client: number; server: number }[] = [];
  body.items.forEach((l, i) => {
    const s = server.items[i];
    if (l.price !== undefined && client(l.price, `items.${i}.price`) !== minor(s.unit_price))
      discrepancies.push({ line: i, field: 'price', client: l.price, server: s.unit_price });
    if (l.total !== undefined && client(l.total, `items.${i}.total`) !== minor(s.total))
      discrepancies.push({ line: i, field: 'total', client: l.total, server: s.total });
  });
  if (body.subtotal !== undefined && client(body.subtotal, 'subtotal') !== minor(server.subtotal))
    discrepancies.push({ line: null, field: 'subtotal', client: body.subtotal, server: server.subtotal });
  if (body.tax_total !== undefined && client(body.tax_total, 'tax_total') !== minor(server.tax_total))
    discrepancies.push({ line: null, field: 'tax_total', client: body.tax_total, server: server.tax_total });
  if (client(body.total_amount, 'total_amount') !== minor(server.total))
    discrepancies.push({ line: null, field: 'total_amount', client: body.total_amount, server: server.total });
  return { valid: discrepancies.length === 0, discrepancies, server };
}

/** GET /items/:item/price: the live unit price of the item priced alone. */
export function itemPriceView(itemId: number, r: PricedCartResult) {
  const line = pricedLineView(r.cart.lines[0], r, 0);
  return {
    item_id: itemId,
    store_id: r.store.id,
    currency: r.store.currencyCode,
    quantity: line.quantity,
    base_price: line.base_price,
    unit_price: line.unit_price,
    price_source: line.price_source,
    prices_include_tax: r.store.pricesIncludeTax,
  };
}

/** GET /items/:item/price-breakdown: every step from base price to final. */
export function itemPriceBreakdownView(itemId: number, r: PricedCartResult) {
  const line = pricedLineView(r.cart.lines[0], r, 0);
  return {
    item_id: itemId,
    store_id: r.store.id,
    currency: r.store.currencyCode,
    quantity: line.quantity,
    base_price: line.base_price,
    final_unit_price: line.unit_price,
    price_source: line.price_source,
    tax_rate: line.tax_rate,
    tax: line.tax,
    total: line.total,
    steps: line.steps,
  };
}

/** GET /items/:item/applicable-price-books: the candidates, and the one the engine picks for the quantity. */
export function applicablePriceBooksView(itemId: number, r: PricedCartResult, candidates: PriceBookCandidate[], quantity: number) {
  return {
    item_id: itemId,
    store_id: r.store.id,
    customer_group_id: r.customerGroupId,
    price_books: candidates.map((c) => ({
      id: c.priceBookId,
      name: c.name,
      priority: c.priority,
      price: fromMinor(c.price, r.decimals),
      min_quantity: c.minQuantity,
    })),
    chosen_price_book_id: bestPriceBook(candidates, quantity)?.priceBookId ?? null,
  };
}

/** POST /pos/discount/approve: the body to the approval request, amounts in the store's currency. */
export function discountApprovalInput(body: DiscountApproveDto, decimals: number): Parameters<DiscountApprovalService['approve']>[1] {
  return {
    approverEmail: body.approver_email,
    password: body.password,
    pin: body.pin,
    twoFactorCode: body.two_factor_code,
    storeId: body.store_id,
    target: body.item_id === undefined ? 'cart' : { itemId: body.item_id },
    discount: toDiscount(body.discount_type, body.discount_value, 'discount', decimals)!,
    baseAmount: body.base_amount === undefined ? undefined : amountToMinor(body.base_amount, decimals, 'base_amount'),
    cartReference: body.cart_reference,
  };
}

/** A percent (two decimals) in basis points. */
const bp = (percent: number | undefined) => (percent === undefined ? undefined : toMinor(percent, 2));

/** The kind-specific values as given (the use case picks the one its resulting kind needs); amounts in the catalog currency. */
export function ruleValues(b: CreateRuleDto | UpdateRuleDto, decimals: number): RuleValues {
  const minor = (v: number | undefined, field: string) => (v === undefined ? undefined : amountToMinor(v, decimals, field));
  return { percentOffBp: bp(b.percent_off), amountOff: minor(b.amount_off, 'amount_off'), fixedPrice: minor(b.fixed_price, 'fixed_price') };
}

/** The fields a rule body gives (an update changes only those); amounts in the catalog currency. */
export function ruleInput(b: CreateRuleDto | UpdateRuleDto, decimals: number): Partial<RuleWrite> {
  const minor = (v: number | undefined, field: string) => (v === undefined ? undefined : amountToMinor(v, decimals, field));
  const kind = b.kind;
  const conditions: RuleWrite['conditions'] = {};
  if (b.item_ids !== undefined) conditions.itemIds = b.item_ids;
  if (b.category_ids !== undefined) conditions.categoryIds = b.category_ids;
  if (b.customer_group_ids !== undefined) conditions.customerGroupIds = b.customer_group_ids;
  if (b.store_ids !== undefined) conditions.storeIds = b.store_ids;
  if (b.min_quantity !== undefined) conditions.minQuantity = b.min_quantity;
  if (b.min_subtotal !== undefined) conditions.minSubtotal = minor(b.min_subtotal, 'min_subtotal');
  if (b.days_of_week !== undefined) conditions.daysOfWeek = b.days_of_week;
  if (b.start_time !== undefined) conditions.startTime = b.start_time;
  if (b.end_time !== undefined) conditions.endTime = b.end_time;
  if (b.valid_from !== undefined) conditions.validFrom = new Date(b.valid_from);
  if (b.valid_to !== undefined) conditions.validTo = lastInstantOfDay(b.valid_to);
  return {
    ...(b.name !== undefined ? { name: b.name } : {}),
    ...(kind !== undefined ? { kind } : {}),
    ...(b.description !== undefined ? { description: b.description } : {}),
    ...(b.priority !== undefined ? { priority: b.priority } : {}),
    ...(b.is_exclusive !== undefined ? { exclusive: b.is_exclusive } : {}),
    ...(b.is_active !== undefined ? { active: b.is_active } : {}),
    ...(b.tiers !== undefined
      ? {
          tiers: b.tiers.map((t, i) => ({
            minQuantity: t.min_quantity,
            percentOffBp: bp(t.percent_off),
            unitPrice: minor(t.unit_price, `tiers.${i}.unit_price`),
          })),
        }
      : {}),
    ...(b.buy_quantity !== undefined ? { buyQuantity: b.buy_quantity } : {}),
    ...(b.get_quantity !== undefined ? { getQuantity: b.get_quantity } : {}),
    ...(b.get_percent_off !== undefined ? { getPercentOffBp: bp(b.get_percent_off) } : {}),
    ...(Object.keys(conditions).length ? { conditions } : {}),
  };
}

/** A new rule: the body's fields over the defaults (no description, priority 0, inclusive, active, no conditions). */
export function ruleCreateInput(b: CreateRuleDto, decimals: number): RuleWrite {
  return {
    description: null,
    priority: 0,
    exclusive: false,
    active: true,
    value: null,
    tiers: null,
    buyQuantity: null,
    getQuantity: null,
    getPercentOffBp: null,
    conditions: {},
    ...ruleInput(b, decimals),
    name: b.name,
    kind: b.kind,
  };
}

/** POST /pricing-rules/evaluate: each rule that changed a price, the lines it touched and what it saved there. */
export function ruleEvaluationView(r: PricedCartResult) {
  const effects = new Map<number, { id: number; name: string; lines: number[]; saving: number }>();
  r.cart.lines.forEach((line, i) => {
    let previous = line.basePrice;
    for (const step of line.steps) {
      if (step.step === 'pricing_rule' && step.id !== undefined) {
        const e = effects.get(step.id) ?? { id: step.id, name: step.name ?? '', lines: [], saving: 0 };
        e.lines.push(i);
        e.saving += (previous - (step.unitPrice ?? previous)) * line.quantity + (step.amount ?? 0);
        effects.set(step.id, e);
      }
      if (step.unitPrice !== undefined) previous = step.unitPrice;
    }
  });
  return {
    applicable_rules: [...effects.values()].map((e) => ({ id: e.id, name: e.name, lines: e.lines, saving: fromMinor(e.saving, r.decimals) })),
    total: fromMinor(r.cart.total, r.decimals),
  };
}

/** A new bundle; `price` already in minor units of the catalog currency (bundles are chain-wide). */
export function bundleCreateInput(b: CreateBundleDto, price: number): BundleWrite {
  return {
    name: b.name,
    code: b.code,
    description: b.description ?? null,
    price,
    active: b.is_active ?? true,
    storeIds: b.store_ids ?? [],
    validFrom: b.valid_from ? new Date(b.valid_from) : null,
    validTo: b.valid_to ? lastInstantOfDay(b.valid_to) : null,
    components: b.items.map((i) => ({ itemId: i.item_id, quantity: i.quantity })),
  };
}

/** A bundle update: only the fields given; `price` already in minor units. */
export function bundleUpdateInput(b: UpdateBundleDto, price: number | undefined): Partial<BundleWrite> {
  return {
    name: b.name,
    code: b.code,
    description: b.description,
    price,
    active: b.is_active,
    storeIds: b.store_ids,
    validFrom: b.valid_from === undefined ? undefined : new Date(b.valid_from),
    validTo: b.valid_to === undefined ? undefined : lastInstantOfDay(b.valid_to),
    components: b.items?.map((i) => ({ itemId: i.item_id, quantity: i.quantity })),
  };
}

/** POST /bundles/calculate: a saved bundle or components given here; `price` already in minor units. */
export function bundleCalculationInput(b: BundleCalculateDto, price: number | undefined): Parameters<BundleService['calculate']>[1] {
  return { bundleId: b.bundle_id, price, quantity: b.quantity, components: b.items?.map((i) => ({ itemId: i.item_id, quantity: i.quantity })) };
}

/** The bulk changes in minor units: `decimalsOf(bookId)`, a price book's currency (undefined: a base price, the catalog's). */
export function bulkPriceChanges(body: BulkPricesDto, decimalsOf: (priceBookId: number | undefined) => number): PriceChange[] {
  const errors = new FieldErrorCollector(); // every row whose price does not fit its currency, named at once
  const changes = body.changes.map((c, i) => ({
    itemId: c.item_id,
    price: errors.take(() => amountToMinor(c.price, decimalsOf(c.price_book_id), `changes.${i}.price`)),
    priceBookId: c.price_book_id,
    minQuantity: c.min_quantity,
  }));
  errors.check();
  return changes;
}
