import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Principal } from '@pos/identity';
import { amountToMinor } from '@pos/kernel';
import { BundleService, CurrencyDecimals } from '@pos/pricing';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { AvailabilityQuery, BundleCalculateDto, BundleListQuery, CreateBundleDto, UpdateBundleDto } from './pricing.dto';
import { Bundle, BundleAvailability, BundleCalculation } from './pricing.responses';
import { ApiEnvelope, ApiErrors, ApiMessage } from '../http/openapi';
import { bundleCalculationInput, bundleCreateInput, bundleUpdateInput } from './pricing.mapper';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { PatchToo } from '../http/partial-update';

@ApiTags('Bundles')
@Controller('bundles')
export class BundlesController {
  constructor(
    private readonly bundles: BundleService,
    private readonly currencies: CurrencyDecimals,
  ) {}

  /** A bundle price in the catalog currency (bundles are chain-wide): more decimals than it has is a 422. */
  private async price(v: number | undefined): Promise<number | undefined> {
    return v === undefined ? undefined : amountToMinor(v, await this.currencies.ofCatalog(), 'price');
  }

  @Get()
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'Bundles (store and validity filters; paginated)' })
  @ApiEnvelope(Bundle, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() q: BundleListQuery) {
    return this.bundles.list(p, { storeId: q.store_id, validity: q.validity }, pageRequest(q, { default: 50, max: 100 }));
  }

  @Post()
  @IdempotentCreate()
  @HttpCode(201)
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Create a bundle' })
  @ApiEnvelope(Bundle, { status: 201 })
  @ApiErrors(409)
  async create(@CurrentPrincipal() p: Principal, @Body() b: CreateBundleDto) {
    return this.bundles.create(p, bundleCreateInput(b, (await this.price(b.price))!));
  }

  @Post('calculate')
  @HttpCode(201)
  @RequirePermission('pos.access')
  @ApiOperation({ summary: "Bundle price against its components' price, and the saving" })
  @ApiEnvelope(BundleCalculation, { status: 201 })
  async calculate(@CurrentPrincipal() p: Principal, @Body() b: BundleCalculateDto) {
    return this.bundles.calculate(p, bundleCalculationInput(b, await this.price(b.price)));
  }

  @Get(':bundle')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'One bundle' })
  @ApiEnvelope(Bundle)
  show(@CurrentPrincipal() p: Principal, @Param('bundle', IdPipe) id: number) {
    return this.bundles.show(p, id);
  }

  @PatchToo()
  @Put(':bundle')
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Update a bundle' })
  @ApiEnvelope(Bundle)
  @ApiErrors(409)
  async update(@CurrentPrincipal() p: Principal, @Param('bundle', IdPipe) id: number, @Body() b: UpdateBundleDto) {
    return this.bundles.update(p, id, bundleUpdateInput(b, await this.price(b.price)));
  }

  @Delete(':bundle')
  @RequirePermission('pricing.manage')
  @ApiOperation({ summary: 'Delete a bundle' })
  @ApiMessage()
  async remove(@CurrentPrincipal() p: Principal, @Param('bundle', IdPipe) id: number) {
    await this.bundles.remove(p, id);
    return new MessageResult('Bundle deleted.');
  }

  @Get(':bundle/availability')
  @RequirePermission('inventory.view')
  @ApiOperation({ summary: "How many bundles the warehouse's component stock allows" })
  @ApiEnvelope(BundleAvailability)
  availability(@CurrentPrincipal() p: Principal, @Param('bundle', IdPipe) id: number, @Query() q: AvailabilityQuery) {
    return this.bundles.availability(p, id, q.warehouse_id);
  }
}
