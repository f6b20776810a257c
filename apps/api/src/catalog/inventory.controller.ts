import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { CatalogCurrency, InventoryService } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, RequirePermission } from '../access/policy.decorators';
import { pageRequest } from '../http/page-query.dto';
import { AdjustmentDto, InventoryQuery, MovementQuery } from './catalog.dto';
import { adjustmentInput } from './catalog.mapper';
import { Adjustment, InventoryRow, StockMovement } from './catalog.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { IdempotentCreate } from '../http/idempotency.decorator';
import { dayEnd, dayStart } from '../http/date-range';

@ApiTags('Inventory')
@Controller('inventory')
export class InventoryController {
  constructor(
    private readonly inventory: InventoryService,
    private readonly currency: CatalogCurrency,
  ) {}

  @Get()
  @RequirePermission('inventory.view')
  @ApiOperation({ summary: 'Stock per item and warehouse (store, warehouse, item, stock_status filters)' })
  @ApiEnvelope(InventoryRow, { paginated: true })
  list(@CurrentPrincipal() p: Principal, @Query() q: InventoryQuery) {
    return this.inventory.list(
      p,
      { storeId: q.store_id, warehouseId: q.warehouse_id, itemId: q.item_id, status: q.stock_status },
      pageRequest(q, { default: 50, max: 200 }),
    );
  }

  @Get('movements')
  @RequirePermission('inventory.view')
  @ApiOperation({ summary: 'The stock movement ledger, newest first' })
  @ApiEnvelope(StockMovement, { paginated: true })
  movements(@CurrentPrincipal() p: Principal, @Query() q: MovementQuery) {
    return this.inventory.movements(
      p,
      { itemId: q.item_id, warehouseId: q.warehouse_id, type: q.type, from: dayStart(q.date_from), to: dayEnd(q.date_to) },
      pageRequest(q, { default: 50, max: 200 }),
    );
  }

  @Post('adjustments')
  @IdempotentCreate()
  @HttpCode(201)
  @RequirePermission('inventory.adjust')
  @ApiOperation({ summary: 'Stock adjustment: count, receive, damage, spoilage or transfer (one transaction)' })
  @ApiEnvelope(Adjustment, { status: 201 })
  @ApiErrors([409, 'Not enough stock, or a level beyond 1,000,000,000 units'])
  async adjust(@CurrentPrincipal() p: Principal, @Body() body: AdjustmentDto) {
    return this.inventory.adjust(p, adjustmentInput(body, await this.currency.decimals()));
  }
}
