import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { ReadOnReplica } from '@pos/platform';
import { StoreService } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { StoreListQuery, WarehouseListQuery } from '../catalog/stores.dto';
import { Store, Warehouse, WarehouseDetail } from '../catalog/catalog.responses';
import { ApiEnvelope } from '../http/openapi';

/** Integration data feeds for stores and warehouses; also served under /integrations/. */
export const INTEGRATION_DATA_PATHS = ['integration/data', 'integrations/data'];
const FEED = { default: 50, max: 200 };

@ApiTags('Integration: data feeds')
@Controller(INTEGRATION_DATA_PATHS)
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class DataStoresController {
  constructor(private readonly stores: StoreService) {}

  @Get('stores')
  @IntegrationRead('stores.view')
  @ApiOperation({ summary: 'Stores feed (with_warehouses includes active warehouses)' })
  @ApiEnvelope(Store, { paginated: true })
  stores_(@CurrentPrincipal() p: Principal, @Query() q: StoreListQuery) {
    return this.stores.list(p, pageRequest(q, FEED), { withWarehouses: q.with_warehouses, withStandalone: q.include_standalone });
  }

  @Get('stores/:store')
  @IntegrationRead('stores.view')
  @ApiOperation({ summary: 'One store' })
  @ApiEnvelope(Store)
  store(@CurrentPrincipal() p: Principal, @Param('store', IdPipe) id: number) {
    return this.stores.show(p, id);
  }

  @Get('warehouses')
  @IntegrationRead('warehouses.view')
  @ApiOperation({ summary: 'Warehouses feed (store_id, standalone_only)' })
  @ApiEnvelope(Warehouse, { paginated: true })
  warehouses(@CurrentPrincipal() p: Principal, @Query() q: WarehouseListQuery) {
    return this.stores.warehouses(p, { storeId: q.store_id, standaloneOnly: q.standalone_only, includeServing: q.include_standalone }, pageRequest(q, FEED));
  }

  @Get('warehouses/:warehouse')
  @IntegrationRead('warehouses.view')
  @ApiOperation({ summary: 'One warehouse' })
  @ApiEnvelope(WarehouseDetail)
  warehouse(@CurrentPrincipal() p: Principal, @Param('warehouse', IdPipe) id: number) {
    return this.stores.warehouse(p, id);
  }
}
