import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig, ReadOnReplica } from '@pos/platform';
import { Clock } from '@pos/kernel';
import { InventoryService, ItemService } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { INTEGRATION_DATA_PATHS } from './integration-paths';
import { InventoryRow, Item } from '../catalog/catalog.responses';
import { Customer } from '../customers/customers.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { ApiFeedEnvelope, CHANGE_MODE_422, ChangeMode } from './change-mode';
import { CustomersFeedQuery, InventoryFeedQuery, ItemsFeedQuery } from './feeds.dto';

const FEED = { default: 50, max: 200 };

/** Integration data feeds for items, customers and inventory (also under /integrations/), each with change mode (./change-mode.ts). */
@ApiTags('Integration: data feeds')
@Controller(INTEGRATION_DATA_PATHS)
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class DataCatalogController {
  private readonly changes: ChangeMode;

  constructor(
    private readonly items: ItemService,
    private readonly customers: CustomerService,
    private readonly inventory: InventoryService,
    @Inject(APP_CONFIG) config: AppConfig,
    clock: Clock,
  ) {
    this.changes = new ChangeMode(config, clock);
  }

  @Get('items')
  @IntegrationRead('items.view')
  @ApiOperation({
    summary: 'Items feed (q: name, SKU, barcode; is_active); change mode with updated_since or cursor, deleted items included (is_active false)',
  })
  @ApiFeedEnvelope(Item, 'A page of items by name')
  @ApiErrors([422, `A filter is malformed; ${CHANGE_MODE_422}`])
  async itemsFeed(@Query() q: ItemsFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('items', q, page.perPage);
    const result = await this.items.list({ q: (q.q ?? q.search)?.trim() || undefined, categoryId: q.category_id, isActive: q.is_active, change }, page);
    return change ? this.changes.page('items', change, page.perPage, result) : result;
  }

  @Get('customers')
  @IntegrationRead('customers.view')
  @ApiOperation({
    summary: 'Customers feed (exclude_walk_in defaults to true); change mode with updated_since or cursor, deleted (anonymised) customers included',
  })
  @ApiFeedEnvelope(Customer, 'A page of customers by name')
  @ApiErrors([422, `A filter is malformed; ${CHANGE_MODE_422}`])
  async customersFeed(@Query() q: CustomersFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('customers', q, page.perPage);
    const result = await this.customers.list({ q: q.q?.trim() || undefined, excludeWalkIn: q.exclude_walk_in ?? true, change }, page);
    return change ? this.changes.page('customers', change, page.perPage, result) : result;
  }

  @Get('customers/:customer')
  @IntegrationRead('customers.view')
  @ApiOperation({ summary: 'One customer' })
  @ApiEnvelope(Customer)
  customer(@Param('customer', IdPipe) id: number) {
    return this.customers.show(id);
  }

  @Get('inventory')
  @IntegrationRead('inventory.view')
  @ApiOperation({
    summary:
      'Inventory feed (store_id, warehouse_id, item_id, stock_status); change mode with updated_since or cursor: stock levels changed by sales, voids, returns, adjustments, transfers or a reorder level',
  })
  @ApiFeedEnvelope(InventoryRow, 'A page of stock levels by item and warehouse')
  @ApiErrors([403, 'store_id or warehouse_id of a store outside your scope'], [422, `A filter is malformed; ${CHANGE_MODE_422}`])
  async inventoryFeed(@CurrentPrincipal() p: Principal, @Query() q: InventoryFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('inventory', q, page.perPage);
    const result = await this.inventory.list(p, { storeId: q.store_id, warehouseId: q.warehouse_id, itemId: q.item_id, status: q.stock_status, change }, page);
    return change ? this.changes.page('inventory', change, page.perPage, result) : result;
  }
}
