import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, AppConfig, ReadOnReplica } from '@pos/platform';
import { Clock } from '@pos/kernel';
import { StoreService } from '@pos/catalog';
import { Principal } from '@pos/identity';
import { CurrentPrincipal, IntegrationRead } from '../access/policy.decorators';
import { IdPipe } from '../http/id.pipe';
import { pageRequest } from '../http/page-query.dto';
import { Store, Warehouse, WarehouseDetail } from '../catalog/catalog.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';
import { ApiFeedEnvelope, CHANGE_MODE_422, ChangeMode } from './change-mode';
import { StoresFeedQuery, WarehousesFeedQuery } from './feeds.dto';
import { INTEGRATION_DATA_PATHS } from './integration-paths';

/** Integration data feeds for stores and warehouses, each with change mode (./change-mode.ts); also served under /integrations/. */
const FEED = { default: 50, max: 200 };

@ApiTags('Integration: data feeds')
@Controller(INTEGRATION_DATA_PATHS)
@ReadOnReplica() // feeds read a replica within DB_READ_MAX_LAG_SECONDS (README: Read replicas)
export class DataStoresController {
  private readonly changes: ChangeMode;

  constructor(
    private readonly stores: StoreService,
    @Inject(APP_CONFIG) config: AppConfig,
    clock: Clock,
  ) {
    this.changes = new ChangeMode(config, clock);
  }

  @Get('stores')
  @IntegrationRead('stores.view')
  @ApiOperation({ summary: 'Stores feed (with_warehouses includes active warehouses); change mode with updated_since or cursor' })
  @ApiFeedEnvelope(Store, 'A page of stores by id')
  @ApiErrors([422, `A filter is malformed; ${CHANGE_MODE_422}`])
  async stores_(@CurrentPrincipal() p: Principal, @Query() q: StoresFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('stores', q, page.perPage);
    const result = await this.stores.list(p, page, { withWarehouses: q.with_warehouses, withStandalone: q.include_standalone, change });
    return change ? this.changes.page('stores', change, page.perPage, result) : result;
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
  @ApiOperation({
    summary: 'Warehouses feed (store_id, standalone_only); change mode with updated_since or cursor, inactive warehouses included (is_active false)',
  })
  @ApiFeedEnvelope(Warehouse, 'A page of active warehouses by id')
  @ApiErrors([403, 'store_id of a store outside your scope'], [422, `A filter is malformed; ${CHANGE_MODE_422}`])
  async warehouses(@CurrentPrincipal() p: Principal, @Query() q: WarehousesFeedQuery) {
    const page = pageRequest(q, FEED);
    const change = this.changes.read('warehouses', q, page.perPage);
    const filter = { storeId: q.store_id, standaloneOnly: q.standalone_only, includeServing: q.include_standalone };
    const result = await this.stores.warehouses(p, change ? { ...filter, activeOnly: false, change } : filter, page);
    return change ? this.changes.page('warehouses', change, page.perPage, result) : result;
  }

  @Get('warehouses/:warehouse')
  @IntegrationRead('warehouses.view')
  @ApiOperation({ summary: 'One warehouse' })
  @ApiEnvelope(WarehouseDetail)
  warehouse(@CurrentPrincipal() p: Principal, @Param('warehouse', IdPipe) id: number) {
    return this.stores.warehouse(p, id);
  }
}
