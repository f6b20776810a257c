import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CatalogModule } from '@pos/catalog';
import { CustomersModule } from '@pos/customers';
import { IdentityModule } from '@pos/identity';
import { BundleService } from './application/bundle.service';
import { BulkPriceService } from './application/bulk-price.service';
import { ActivePricingCache } from './application/active-pricing.cache';
import { DiscountApprovalService } from './application/discount-approval.service';
import { EngineLivePrice } from './application/engine-live-price';
import { PricingRuleService } from './application/pricing-rule.service';
import { PricingRepository } from './application/pricing.ports';
import { PricingService } from './application/pricing.service';
import { TaxAndCurrencyService } from './application/tax-and-currency.service';
import { PRICING_ENTITIES } from './infrastructure/pricing.entities';
import { TypeOrmPricingRepository } from './infrastructure/pricing.repository';

/** Price books (applied), pricing rules, bundles, tax, currencies, discount approvals. */
@Module({
  imports: [TypeOrmModule.forFeature(PRICING_ENTITIES), CatalogModule, CustomersModule, IdentityModule],
  providers: [
    PricingService,
    PricingRuleService,
    BundleService,
    DiscountApprovalService,
    TaxAndCurrencyService,
    EngineLivePrice,
    BulkPriceService,
    ActivePricingCache,
    { provide: PricingRepository, useClass: TypeOrmPricingRepository },
  ],
  exports: [PricingService, PricingRuleService, BundleService, DiscountApprovalService, TaxAndCurrencyService, BulkPriceService],
})
export class PricingModule {}
