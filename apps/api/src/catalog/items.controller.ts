import { Body, Controller, Delete, Get, Headers, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogCurrency, InventoryService, ItemService } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { ReadOnReplica } from '@pos/platform';
import { CurrentPrincipal, RateTier, RequirePermission } from '../access/policy.decorators';
import { MessageResult } from '../http/envelope';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { CheckNameQuery, CreateItemDto, ItemListQuery, ItemWriteDto, SerialQuery } from './catalog.dto';
import { itemCreateInput, itemInput } from './catalog.mapper';
import { Item, ItemDetail, ItemNameCheck, SerialNumber } from './catalog.responses';
import { ApiEnvelope, ApiErrors, ApiMessage } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { expectedVersions } from '../http/conditional';
import { ApiIfMatch } from '../http/conditional.openapi';
import { PatchToo } from '../http/partial-update';

@ApiTags('Catalog: items')
@Controller('items')
@RateTier('pos')
export class ItemsController {
  constructor(
    private readonly items: ItemService,
    private readonly inventory: InventoryService,
    private readonly currency: CatalogCurrency,
  ) {}

  @Get()
  @RequirePermission('items.view')
  @ApiOperation({
    summary: 'Items: q (or legacy search) matches a word start of the name, the SKU prefix or the exact barcode; per_page default 50, max 100',
    description:
      "meta.total is exact as of the last item write through the API: a filter's total is counted on its first page and kept for its next pages " +
      'until any item is created, edited or deleted (items written to the database around the API count within REFERENCE_CACHE_TTL_MS, 5 s by default).',
  })
  @ApiEnvelope(Item, { paginated: true })
  @ReadOnReplica()
  list(@Query() q: ItemListQuery) {
    return this.items.list(
      { q: (q.q ?? q.search)?.trim() || undefined, categoryId: q.category_id, isActive: q.is_active },
      pageRequest(q, { default: 50, max: 100 }),
    );
  }

  @Get('check-name')
  @RequirePermission('items.view')
  @ApiOperation({ summary: 'Whether an item name is free (case-insensitive), ignoring exclude_id' })
  @ApiEnvelope(ItemNameCheck)
  checkName(@Query() q: CheckNameQuery) {
    return this.items.checkName(q.name, q.exclude_id);
  }

  @Get(':item')
  @RequirePermission('items.view')
  @ApiOperation({ summary: "An item with barcodes, units, tax class and stock in the user's warehouses (deleted items stay readable)" })
  @ApiEnvelope(ItemDetail)
  show(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number) {
    return this.items.show(p, id);
  }

  @Get(':item/serial-numbers')
  @RequirePermission('inventory.view')
  @ApiOperation({ summary: 'Serial numbers of a serial-tracked item' })
  @ApiEnvelope([SerialNumber])
  serials(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number, @Query() q: SerialQuery) {
    return this.inventory.serials(p, id, { warehouseId: q.warehouse_id, status: q.status });
  }

  @Post()
  @IdempotentCreate()
  @HttpCode(201)
  @RateTier('standard')
  @RequirePermission('catalog.manage')
  @ApiOperation({ summary: 'Create an item (back office; SKU and barcodes unique)' })
  @ApiEnvelope(ItemDetail, { status: 201 })
  @ApiErrors(409)
  async create(@CurrentPrincipal() p: Principal, @Body() body: CreateItemDto) {
    return this.items.create(p, itemCreateInput(body, await this.currency.decimals()));
  }

  @PatchToo()
  @Put(':item')
  @RateTier('standard')
  @RequirePermission('catalog.manage')
  @ApiOperation({ summary: 'Update an item; barcodes/units, when given, replace the current ones; If-Match or version: only if unchanged since (else 412)' })
  @ApiEnvelope(ItemDetail)
  @ApiErrors(409)
  @ApiIfMatch('item')
  async update(@CurrentPrincipal() p: Principal, @Param('item', IdPipe) id: number, @Body() body: ItemWriteDto, @Headers('if-match') ifMatch?: string) {
    const expected = expectedVersions(ifMatch, body.version, 'item');
    return this.items.update(p, id, itemInput(body, await this.currency.decimals()), expected);
  }

  @Delete(':item')
  @RateTier('standard')
  @RequirePermission('catalog.manage')
  @ApiOperation({ summary: 'Soft-delete an item (it stays readable on old sales)' })
  @ApiMessage()
  async remove(@Param('item', IdPipe) id: number) {
    await this.items.remove(id);
    return new MessageResult('Item deleted.');
  }
}
