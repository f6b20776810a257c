import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReferenceService, TaxAndCurrencyService } from '@pos/pricing';
import { RequirePermission } from '../access/policy.decorators';
import { ConvertQuery, RateDto } from './pricing.dto';
import { Currency, CurrencyConversion, ExchangeRate } from './pricing.responses';
import { ApiEnvelope } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';

@ApiTags('Currencies')
@Controller('currencies')
export class CurrenciesController {
  constructor(
    private readonly reference: ReferenceService,
    private readonly currency: TaxAndCurrencyService,
  ) {}

  @Get()
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'Active currencies (base first) with their minor-unit decimals' })
  @ApiEnvelope([Currency])
  list() {
    return this.reference.currencies();
  }

  @Get('convert')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: "Convert an amount between currencies with the latest rates, to the target's minor unit" })
  @ApiEnvelope(CurrencyConversion)
  convert(@Query() q: ConvertQuery) {
    return this.currency.convert(q.amount, q.from, q.to);
  }

  @Get(':currency')
  @RequirePermission('pos.access')
  @ApiOperation({ summary: 'A currency by id or ISO code' })
  @ApiEnvelope(Currency)
  show(@Param('currency') idOrCode: string) {
    return this.reference.currency(idOrCode);
  }

  @Post(':currency/rates')
  @IdempotentCreate()
  @HttpCode(201)
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Record an exchange rate (units per 1 base unit), effective now or at effective_at' })
  @ApiEnvelope(ExchangeRate, { status: 201 })
  setRate(@Param('currency') code: string, @Body() body: RateDto) {
    return this.currency.setRate(code, body.rate, body.effective_at ? new Date(body.effective_at) : undefined);
  }
}
