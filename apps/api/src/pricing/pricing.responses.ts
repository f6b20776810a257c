import { defineView, s } from '../http/openapi';

const PRICE_SOURCES = ['base', 'price_book', 'pricing_rule', 'bundle', 'manual', 'offline'] as const;
const STEPS = ['base', 'price_book', 'pricing_rule', 'bundle', 'manual_price', 'manual_discount', 'cart_discount', 'tax'] as const;

export const PriceStep = defineView('PriceStep', {
  step: s.enum(STEPS),
  id: s.nullable(s.int()),
  name: s.nullable(s.string()),
  unit_price: s.nullable(s.money('Unit price after a price step')),
  amount: s.nullable(s.money('Amount taken off (discount steps) or the tax')),
});

const discounts = s.object({ rule: s.money(), bundle: s.money(), manual: s.money(), cart: s.money(), total: s.money() });

export const PricedLine = defineView('PricedLine', {
  line: s.int(),
  item_id: s.int(),
  sku: s.string(),
  name: s.string(),
  quantity: s.int(),
  unit: s.nullable(s.object({ id: s.int(), name: s.string(), factor: s.int() })),
  base_quantity: s.int(),
  base_price: s.money(),
  server_unit_price: s.money(),
  unit_price: s.money(),
  price_source: s.enum(PRICE_SOURCES),
  gross: s.money('unit_price x quantity before tax (in a tax-inclusive store, without the tax the price holds)'),
  discounts,
  net: s.money('gross - discounts: before tax in either tax mode; net + tax = total'),
  tax_rate: s.percent(),
  tax: s.money(),
  tax_exempted: s.money('Tax-inclusive store, exempt sale: the tax the shelf price holds that the customer did not pay (else 0)'),
  total: s.money(),
  steps: s.array(PriceStep),
});

const pricedCart = {
  store_id: s.int(),
  currency: s.string(),
  prices_include_tax: s.bool(),
  tax_exempt: s.bool(),
  customer_id: s.nullable(s.int()),
  items: s.array(PricedLine),
  subtotal: s.money(),
  discount_total: s.money(),
  tax_total: s.money(),
  total: s.money(),
  applied_rules: s.array(s.int()),
  applied_bundles: s.array(s.int()),
};
export const PricedCart = defineView('PricedCart', pricedCart);
export const pricedCartProperties = pricedCart;

export const CartFigures = defineView('CartFigures', {
  subtotal: s.money(),
  discount_total: s.money(),
  tax_total: s.money(),
  total: s.money(),
  items: s.array(
    s.object({
      line: s.int(),
      item_id: s.int(),
      quantity: s.int(),
      unit_price: s.money(),
      price_source: s.enum(PRICE_SOURCES),
      discount: s.money(),
      tax: s.money(),
      total: s.money(),
    }),
  ),
});

export const PricedItem = defineView('PricedItem', {
  ...(PricedLine.schema.properties as Record<string, never>),
  currency: s.string(),
  prices_include_tax: s.bool(),
});

export const PriceValidation = defineView('PriceValidation', {
  valid: s.bool(),
  discrepancies: s.array(
    s.object({ line: s.nullable(s.int()), field: s.enum(['price', 'total', 'subtotal', 'tax_total', 'total_amount']), client: s.number(), server: s.number() }),
  ),
  server: PricedCart,
});

export const PricingRule = defineView('PricingRule', {
  id: s.int(),
  name: s.string(),
  description: s.nullable(s.string()),
  kind: s.enum(['percent_off', 'amount_off', 'fixed_price', 'quantity_tiers', 'buy_x_get_y']),
  priority: s.int(),
  is_exclusive: s.bool(),
  is_active: s.bool(),
  percent_off: s.nullable(s.percent()),
  amount_off: s.nullable(s.money()),
  fixed_price: s.nullable(s.money()),
  tiers: s.nullable(s.array(s.object({ min_quantity: s.int(), percent_off: s.nullable(s.percent()), unit_price: s.nullable(s.money()) }))),
  buy_quantity: s.nullable(s.int()),
  get_quantity: s.nullable(s.int()),
  get_percent_off: s.nullable(s.percent()),
  conditions: s.object({
    item_ids: s.array(s.int()),
    category_ids: s.array(s.int()),
    customer_group_ids: s.array(s.int()),
    store_ids: s.array(s.int()),
    min_quantity: s.nullable(s.int()),
    min_subtotal: s.nullable(s.money()),
    days_of_week: s.array(s.int()),
    start_time: s.nullable(s.string()),
    end_time: s.nullable(s.string()),
  }),
  valid_from: s.nullable(s.dateTime()),
  valid_to: s.nullable(s.dateTime()),
  version: s.int('1 when created, +1 on every write; send it back (body version or If-Match) to refuse overwriting a newer edit'),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
});

export const RuleEvaluation = defineView('RuleEvaluation', {
  applicable_rules: s.array(s.object({ id: s.int(), name: s.string(), lines: s.array(s.int()), saving: s.money() })),
  total: s.money(),
});

export const RulesForItem = defineView('RulesForItem', { item_id: s.int(), rules: s.array(PricingRule), applied_now: s.array(s.int()) });

export const ItemPrice = defineView('ItemPrice', {
  item_id: s.int(),
  store_id: s.int(),
  currency: s.string(),
  quantity: s.int(),
  base_price: s.money(),
  unit_price: s.money(),
  price_source: s.enum(PRICE_SOURCES),
  prices_include_tax: s.bool(),
});

export const ItemPriceBreakdown = defineView('ItemPriceBreakdown', {
  item_id: s.int(),
  store_id: s.int(),
  currency: s.string(),
  quantity: s.int(),
  base_price: s.money(),
  final_unit_price: s.money(),
  price_source: s.enum(PRICE_SOURCES),
  tax_rate: s.percent(),
  tax: s.money(),
  total: s.money(),
  steps: s.array(PriceStep),
});

export const ApplicablePriceBooks = defineView('ApplicablePriceBooks', {
  item_id: s.int(),
  store_id: s.int(),
  customer_group_id: s.nullable(s.int()),
  price_books: s.array(s.object({ id: s.int(), name: s.string(), priority: s.int(), price: s.money(), min_quantity: s.int() })),
  chosen_price_book_id: s.nullable(s.int()),
});

export const TaxCalculation = defineView('TaxCalculation', {
  store_id: s.int(),
  prices_include_tax: s.bool(),
  tax_exempt: s.bool(),
  items: s.array(
    s.object({ line: s.int(), item_id: s.int(), net: s.money(), tax_rate: s.percent(), tax: s.money(), tax_exempted: s.money(), total: s.money() }),
  ),
  tax_lines: s.array(s.object({ rate: s.percent(), exempt: s.bool(), taxable: s.money(), tax: s.money() })),
  subtotal: s.money(),
  tax_total: s.money(),
  total: s.money(),
});

export const TaxInfo = defineView('TaxInfo', {
  store_id: s.int(),
  currency: s.string(),
  prices_include_tax: s.bool(),
  rounding: s.string(),
  exemption: s.string(),
  tax_classes: s.array(
    s.object({
      id: s.int(),
      code: s.string(),
      name: s.string(),
      rate: s.percent(),
      rates: s.array(s.object({ id: s.int(), name: s.string(), rate: s.percent(), store_id: s.nullable(s.int()) })),
    }),
  ),
});

export const DiscountLimits = defineView('DiscountLimits', {
  user_id: s.int(),
  role: s.nullable(s.string()),
  max_discount_percent: s.percent(),
  max_discount_amount: s.money(),
  can_approve_discounts: s.bool(),
});

export const DiscountApproval = defineView('DiscountApproval', {
  approval_token: s.string(),
  expires_at: s.dateTime(),
  approved_by: s.object({ id: s.int(), name: s.string() }),
  store_id: s.int(),
  scope: s.enum(['cart', 'line']),
  item_id: s.nullable(s.int()),
  discount: s.object({ type: s.enum(['percent', 'amount']), value: s.number() }),
  base_amount: s.nullable(s.money('What the discount is taken of, as given (null: an amount discount given without one)')),
  approved_amount: s.money('The most the discount may come to at checkout, over every use of the token in the sale'),
  cart_reference: s.string(),
});

export const Bundle = defineView('Bundle', {
  id: s.int(),
  name: s.string(),
  code: s.string(),
  description: s.nullable(s.string()),
  price: s.money(),
  is_active: s.bool(),
  store_ids: s.array(s.int(), 'Empty: every store'),
  valid_from: s.nullable(s.dateTime()),
  valid_to: s.nullable(s.dateTime()),
  items: s.array(s.object({ item_id: s.int(), quantity: s.int() })),
  created_at: s.dateTime(),
  updated_at: s.dateTime(),
});

export const BundleCalculation = defineView('BundleCalculation', {
  bundle_id: s.nullable(s.int()),
  quantity: s.int(),
  items: s.array(s.object({ item_id: s.int(), sku: s.string(), name: s.string(), quantity: s.int(), unit_price: s.money(), total: s.money() })),
  components_total: s.money(),
  bundle_price: s.money(),
  saving: s.money(),
  saving_percent: s.percent(),
});

export const BundleAvailability = defineView('BundleAvailability', {
  bundle_id: s.int(),
  warehouse_id: s.int(),
  available: s.int(),
  components: s.array(s.object({ item_id: s.int(), required: s.int(), on_hand: s.int(), bundles_possible: s.int() })),
});

export const CurrencyConversion = defineView('CurrencyConversion', {
  amount: s.number(),
  from: s.string(),
  to: s.string(),
  rate: s.number('Units of `to` per unit of `from`, 8 decimals'),
  converted: s.number('In the target currency minor unit'),
  decimals: s.int(),
  rate_effective_at: s.nullable(s.dateTime()),
});

export const ExchangeRate = defineView('ExchangeRate', { currency: s.string(), rate: s.number(), effective_at: s.dateTime() });

export const BulkPriceJob = defineView('BulkPriceJob', {
  id: s.int('The job id (the same as job_id)'),
  job_id: s.int(),
  status: s.enum(['queued', 'running', 'completed', 'failed']),
  total: s.int(),
  processed: s.int(),
  failed: s.int(),
  progress: s.int('Percent done'),
  result: s.any('The job outcome once finished (free-form JSON), else null'),
  created_at: s.dateTime(),
  started_at: s.nullable(s.dateTime()),
  finished_at: s.nullable(s.dateTime()),
});

export const Currency = defineView('Currency', {
  id: s.int(),
  code: s.string(),
  name: s.string(),
  symbol: s.string(),
  decimals: s.int(),
  is_base: s.bool(),
  is_active: s.bool(),
  updated_at: s.dateTime(),
});
const priceBook = {
  id: s.int(),
  name: s.string(),
  code: s.string(),
  currency_code: s.string(),
  priority: s.int(),
  is_active: s.bool(),
  valid_from: s.nullable(s.dateTime()),
  valid_to: s.nullable(s.dateTime()),
  store_ids: s.array(s.int()),
  customer_group_ids: s.array(s.int()),
  updated_at: s.dateTime(),
};
export const PriceBook = defineView('PriceBook', priceBook);
export const PriceBookDetail = defineView('PriceBookDetail', {
  ...priceBook,
  entries: s.array(s.object({ id: s.int(), item_id: s.int(), price: s.money(), min_quantity: s.int() })),
});
