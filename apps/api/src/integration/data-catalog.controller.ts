import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReadOnReplica } from '@pos/platform';
import { InventoryService, ItemService } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { InventoryQuery, ItemListQuery } from '../catalog/catalog.dto';
import { IntegrationCustomerQuery } from '../customers/customers.dto';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { INTEGRATION_DATA_PATHS } from './data-stores.controller';
import { InventoryRow, Item } from '../catalog/catalog.responses';
import { Customer } from '../customers/customers.responses';
import { ApiEnvelope } from '../http/openapi';

const FEED = { default: 50, max: 200 };

/** Integration data feeds for items, customers and inventory (also under /integrations/). */
@ApiTags('Integration: data feeds')
@Controller(INTEGRATION_DATA_PATHS)
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class DataCatalogController {
  constructor(
    private readonly items: ItemService,
    private readonly customers: CustomerService,
    private readonly inventory: InventoryService,
  ) {}

  @Get('items')
  @IntegrationRead('items.view')
  @ApiOperation({ summary: 'Items feed (q: name, SKU, barcode; is_active)' })
  @ApiEnvelope(Item, { paginated: true })
  itemsFeed(@Query() q: ItemListQuery) {
    return this.items.list({ q: (q.q ?? q.search)?.trim() || undefined, categoryId: q.category_id, isActive: q.is_active }, pageRequest(q, FEED));
  }

  @Get('customers')
  @IntegrationRead('customers.view')
  @ApiOperation({ summary: 'Customers feed (exclude_walk_in defaults to true)' })
  @ApiEnvelope(Customer, { paginated: true })
  customersFeed(@Query() q: IntegrationCustomerQuery) {
    return this.customers.list({ q: q.q?.trim() || undefined, excludeWalkIn: q.exclude_walk_in ?? true }, pageRequest(q, FEED));
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
  @ApiOperation({ summary: 'Inventory feed (store_id, warehouse_id, item_id, stock_status)' })
  @ApiEnvelope(InventoryRow, { paginated: true })
  inventoryFeed(@CurrentPrincipal() p: Principal, @Query() q: InventoryQuery) {
    return this.inventory.list(p, { storeId: q.store_id, warehouseId: q.warehouse_id, itemId: q.item_id, status: q.stock_status }, pageRequest(q, FEED));
  }
}
