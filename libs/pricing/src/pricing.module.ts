import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { CustomersModule } from '@pos/customers';
import { IdentityModule } from '@pos/identity';
import { ActivePricingCache } from './application/active-pricing.cache';
import { BulkPriceService } from './application/bulk-price.service';
import { BundleService } from './application/bundle.service';
import { CurrencyDecimals } from './application/currency-decimals';
import { DiscountApprovalService } from './application/discount-approval.service';
import { LivePriceService } from './application/live-price.service';
import { PosProductService } from './application/pos-product.service';
import { PricingRuleService } from './application/pricing-rule.service';
import { PricingRepository } from './application/pricing.ports';
import { PricingService } from './application/pricing.service';
import { ReferenceRepository } from './application/reference.ports';
import { ReferenceService } from './application/reference.service';
import { TaxAndCurrencyService } from './application/tax-and-currency.service';
import { StoreScopePolicy } from './application/store-scope.policy';
import { PRICING_ENTITIES } from './infrastructure/pricing.entities';
import { TypeOrmPricingRepository } from './infrastructure/pricing.repository';
import { REFERENCE_ENTITIES } from './infrastructure/reference.entities';
import { TypeOrmReferenceRepository } from './infrastructure/reference.repository';

/**
 * Prices and what they are made of: tax classes and rates, currencies and exchange rates, price
 * books, pricing rules, bundles, discount limits and approvals, bulk price jobs, and the POS
 * product lookup (catalog items with their live price and stock).
 */
@Module({
  imports: [TypeOrmModule.forFeature([...PRICING_ENTITIES, ...REFERENCE_ENTITIES]), CatalogModule, CustomersModule, IdentityModule],
  providers: [
    PricingService,
    PricingRuleService,
    BundleService,
    DiscountApprovalService,
    TaxAndCurrencyService,
    ReferenceService,
    LivePriceService,
    PosProductService,
    BulkPriceService,
    ActivePricingCache,
    CurrencyDecimals,
    StoreScopePolicy,
    { provide: PricingRepository, useClass: TypeOrmPricingRepository },
    { provide: ReferenceRepository, useClass: TypeOrmReferenceRepository },
  ],
  exports: [
    PricingService,
    PricingRuleService,
    BundleService,
    DiscountApprovalService,
    TaxAndCurrencyService,
    ReferenceService,
    PosProductService,
    BulkPriceService,
    CurrencyDecimals,
    LivePriceService,
  ],
})
export class PricingModule {}
