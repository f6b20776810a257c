/**
 * The pricing context's published interface: price a cart (PricingService), the POS product
 * lookup, discount limits and approval tokens, tax and currency reference data, rules, bundles
 * and bulk price jobs for their endpoints, and the pure engine and its types. Repositories,
 * entities and tables stay inside.
 */
export { PricingModule } from './pricing.module';
export * from './domain/pricing.types';
export { priceCart, bundleCount, bestPriceBook, booksBeforeTax } from './domain/pricing-engine';
export * from './domain/discount-policy';
export { PricingService, pricedCartView, pricedLineView, discountBreakdown, taxRateFor, safeTimeZone } from './application/pricing.service';
export type { CartLineRequest, CartRequest, PricedCartResult } from './application/pricing.service';
export { PosProductService } from './application/pos-product.service';
export type { PosContext } from './application/pos-product.service';
export { DiscountApprovalService } from './application/discount-approval.service';
export type { ApprovalScope, ApprovalUse } from './application/discount-approval.service';
export { CurrencyDecimals } from './application/currency-decimals';
export { TaxAndCurrencyService } from './application/tax-and-currency.service';
export { ReferenceService, currencyView } from './application/reference.service';
export { LivePriceService } from './application/live-price.service';
export { PricingRuleService, ruleViewInCurrency } from './application/pricing-rule.service';
export type { RuleValues } from './application/pricing-rule.service';
export type { RuleRecord, RuleWrite, BundleRecord, BundleWrite, PriceChangeRow } from './application/pricing.ports';
export { BundleService, bundleViewInCurrency } from './application/bundle.service';
export { BulkPriceService, BulkPricesJob } from './application/bulk-price.service';
export type { PriceChange } from './application/bulk-price.service';
export * from './application/pricing.events';
