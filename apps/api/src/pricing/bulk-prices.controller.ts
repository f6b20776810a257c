import { Body, Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { BulkPriceService, CurrencyDecimals } from '@pos/pricing';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { BulkPricesDto } from './pricing.dto';
import { bulkPriceChanges } from './pricing.mapper';
import { BulkPriceJob } from './pricing.responses';
import { ApiEnvelope } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { JobLocation, withJobId } from '../http/job-location';

@ApiTags('Pricing')
@Controller('prices/bulk')
@RequirePermission('pricing.manage')
export class BulkPricesController {
  constructor(
    private readonly bulk: BulkPriceService,
    private readonly currencies: CurrencyDecimals,
  ) {}

  @Post()
  @IdempotentCreate({ mode: 'claim' })
  @JobLocation()
  @HttpCode(200)
  @RateTier('bulk')
  @ApiOperation({
    summary: 'Up to 10,000 price changes (items or price-book entries): validated, then applied by a queued job',
    description: "200 (the contract's status for this route), with the job's status URL in Location and its id as both id and job_id.",
  })
  @ApiEnvelope(BulkPriceJob)
  async submit(@CurrentPrincipal() p: Principal, @Body() body: BulkPricesDto) {
    // A base price is a catalog amount; a price book entry is in its book's currency.
    const decimals = new Map<number | undefined, number>([[undefined, await this.currencies.ofCatalog()]]);
    for (const book of new Set(body.changes.map((c) => c.price_book_id))) if (!decimals.has(book)) decimals.set(book, await this.currencies.ofPriceBook(book!));
    const job = await this.bulk.submit(
      p,
      bulkPriceChanges(body, (book) => decimals.get(book)!),
    );
    return withJobId(job);
  }

  @Get(':job')
  @ApiOperation({ summary: 'Progress and result of a bulk price job' })
  @ApiEnvelope(BulkPriceJob)
  async status(@Param('job', IdPipe) id: number) {
    return withJobId(await this.bulk.status(id));
  }
}
