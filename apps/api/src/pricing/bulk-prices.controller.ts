import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { toMinor } from '@pos/kernel';
import { BulkPriceService } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { BulkPricesDto } from './pricing.dto';
import { BulkPriceJob } from './pricing.responses';
import { ApiEnvelope } from '../http/openapi';

@ApiTags('Pricing')
@Controller('prices/bulk')
@RequirePermission('pricing.manage')
export class BulkPricesController {
  constructor(private readonly bulk: BulkPriceService) {}

  @Post()
  @HttpCode(200)
  @RateTier('bulk')
  @ApiOperation({ summary: 'Up to 10,000 price changes (items or price-book entries): validated, then applied by a queued job' })
  @ApiEnvelope(BulkPriceJob)
  submit(@CurrentPrincipal() p: Principal, @Body() body: BulkPricesDto) {
    return this.bulk.submit(
      p,
      body.changes.map((c) => ({ itemId: c.item_id, price: toMinor(c.price), priceBookId: c.price_book_id, minQuantity: c.min_quantity })),
    );
  }

  @Get(':job')
  @ApiOperation({ summary: 'Progress and result of a bulk price job' })
  @ApiEnvelope(BulkPriceJob)
  status(@Param('job', IdPipe) id: number) {
    return this.bulk.status(id);
  }
}
