import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { currentStoreId, Principal } from '@pos/identity';
import { CurrencyDecimals, PricingService, TaxAndCurrencyService } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { ApiEnvelope } from '../http/openapi';
import { PricingCartDto, TaxInfoQuery } from './pricing.dto';
import { cartRequest } from './pricing.mapper';
import { TaxCalculation, TaxInfo } from './pricing.responses';

/** Tax at the till: a cart's tax per line and per rate, and a store's tax set-up. */
@ApiTags('Pricing')
@Controller('pos/tax')
@RateTier('pos')
export class TaxController {
  constructor(
    private readonly currencies: CurrencyDecimals,
    private readonly pricing: PricingService,
    private readonly tax: TaxAndCurrencyService,
  ) {}

  @Post('calculate')
  @HttpCode(200)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Tax for a cart: per line and per rate' })
  @ApiEnvelope(TaxCalculation)
  async taxCalculate(@CurrentPrincipal() p: Principal, @Body() body: PricingCartDto) {
    return this.tax.taxView(await this.pricing.price(p, cartRequest(body, await this.currencies.ofStore(body.store_id ?? currentStoreId(p)))));
  }

  @Get('info')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: "A store's tax mode, classes and rates, rounding and exemption rules" })
  @ApiEnvelope(TaxInfo)
  taxInfo(@CurrentPrincipal() p: Principal, @Query() q: TaxInfoQuery) {
    return this.tax.taxInfo(p, q.store_id);
  }
}
