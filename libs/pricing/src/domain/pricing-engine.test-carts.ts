import { CartInput, CartLineInput, PricingContext, PricingRule } from './pricing.types';

/**
 * Builders of carts for the pricing engine's specs (properties and worked examples): a context, a
 * line, a rule and a cart with every field at a neutral default, so a case states only what it is about.
 */
export const ctx = (over: Partial<PricingContext> = {}): PricingContext => ({
  storeId: 1,
  customerGroupId: null,
  at: new Date('2026-11-18T15:00:00Z'), // a Wednesday, 10:00 in New York
  timeZone: 'America/New_York',
  pricesIncludeTax: false,
  taxExempt: false,
  ...over,
});

export const line = (key: string, itemId: number, quantity: number, basePrice: number, over: Partial<CartLineInput> = {}): CartLineInput => ({
  key,
  itemId,
  categoryId: null,
  quantity,
  basePrice,
  priceBooks: [],
  taxRateBp: 0,
  ...over,
});

export const rule = (over: Partial<PricingRule> & Pick<PricingRule, 'kind'>): PricingRule => ({
  id: 1,
  name: 'rule',
  priority: 0,
  exclusive: false,
  active: true,
  conditions: {},
  ...over,
});

export const cart = (lines: CartLineInput[], over: Partial<CartInput> = {}): CartInput => ({ context: ctx(), lines, rules: [], bundles: [], ...over });
